import Provider, { errors, type ClientMetadata, type Configuration } from "oidc-provider";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DevUser } from "./dev-identity.js";
import { handleInteraction, INTERACTION_PATH } from "./provider-interactions.js";
import { providerPagePolicy, signOutPage, signedOutPage } from "./sign-in-pages.js";

/** A client of the dev provider, allowed the client-credentials grant. */
export interface DevClient {
  clientId: string;
  clientSecret: string;
  /** The scopes its tokens may carry. */
  scopes: string[];
}

/**
 * A public client that signs people in (a browser app such as the console): the
 * authorization-code grant with PKCE (S256), no secret, tokens for a resource named
 * by an RFC 8707 resource indicator. First-party: consent is given without asking.
 */
export interface DevPublicClient {
  clientId: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** The resource scopes its tokens may carry (besides openid). */
  scopes: string[];
}

/** An API the provider issues tokens for (an RFC 8707 resource indicator). */
export interface DevResource {
  audience: string;
  scopes: string[];
}

export interface DevIdentityProviderOptions {
  issuer: string;
  /** The first is the default resource of token requests without one. */
  resources: DevResource[];
  clients: DevClient[];
  /** Clients signing people in with the authorization-code grant; none by default. */
  publicClients?: DevPublicClient[];
  /** Who may sign in at the login page; none by default. */
  users?: DevUser[];
  /** Private signing keys (JWK); one is generated when none are given. */
  keys?: JWK[];
  accessTokenTtlSeconds?: number;
}

export interface DevIdentityProvider {
  readonly issuer: string;
  /** Serves the provider's endpoints; `prefix` is the path it is mounted under, if any. */
  handle(req: IncomingMessage, res: ServerResponse, prefix?: string): void;
  /** The current private signing keys, newest first. */
  keys(): JWK[];
  /** Signs with a fresh key from now on, still publishing the old ones. */
  rotateKey(): Promise<void>;
  /** Stops publishing every key but the newest (tokens they signed must then be refused). */
  retireOldKeys(): void;
}

/**
 * A real OpenID Connect provider (oidc-provider, OpenID certified) for `cpb dev` and
 * the tests: the client-credentials grant, with JWT access tokens for the configured
 * resources (RFC 8707 resource indicators), signed with ES256 and published at jwks_uri;
 * and, for public clients, the authorization-code grant with PKCE, people signing in
 * at its own login page (provider-interactions.ts, sign-in-pages.ts) and RP-initiated logout.
 */
export async function createDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  let keys = options.keys?.length ? options.keys : [await newSigningKey()];
  // Signs the provider's cookies (interaction and session); one per process.
  const cookieKeys = [randomBytes(32).toString("base64url")];
  let provider = createProvider(options, keys, cookieKeys);
  const users = options.users ?? [];
  return {
    issuer: options.issuer,
    handle(req, res, prefix = "") {
      // oidc-provider builds its endpoint URLs from originalUrl (NOTES.md).
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = (req.url ?? "/").slice(prefix.length) || "/";
      // The login page is ours (devInteractions stay off): oidc-provider sends people to it.
      if (req.url.startsWith(`${INTERACTION_PATH}/`))
        return void handleInteraction(provider, req, res, {
          issuer: options.issuer,
          users,
          formTargets: formTargets(options),
        });
      void provider.callback()(req, res);
    },
    keys: () => keys,
    async rotateKey() {
      keys = [await newSigningKey(), ...keys];
      provider = createProvider(options, keys, cookieKeys);
    },
    retireOldKeys() {
      keys = keys.slice(0, 1);
      provider = createProvider(options, keys, cookieKeys);
    },
  };
}

/** Where the provider's pages send the browser: itself, and the public clients' redirect URIs (CSP form-action covers redirects after a submission). */
function formTargets(options: DevIdentityProviderOptions): string[] {
  const uris = (options.publicClients ?? []).flatMap((client) => [
    ...client.redirectUris,
    ...client.postLogoutRedirectUris,
  ]);
  return [...new Set([new URL(options.issuer).origin, ...uris.map((uri) => new URL(uri).origin)])];
}

function createProvider(options: DevIdentityProviderOptions, keys: JWK[], cookieKeys: string[]): Provider {
  const resources = new Map(options.resources.map((r) => [r.audience, r]));
  const users = new Map((options.users ?? []).map((user) => [user.username, user]));
  const issuerPath = new URL(options.issuer).pathname.replace(/\/$/, "");
  const pagePolicy = providerPagePolicy(formTargets(options));
  const configuration: Configuration = {
    clients: [
      ...options.clients.map((client): ClientMetadata => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "ES256", // the only key type the provider holds
        scope: client.scopes.join(" "),
      })),
      ...(options.publicClients ?? []).map((client): ClientMetadata => ({
        client_id: client.clientId,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        // A browser app keeps no secret: PKCE (S256) binds the code to it, and
        // oidc-provider requires PKCE of every client without authentication.
        token_endpoint_auth_method: "none",
        id_token_signed_response_alg: "ES256",
        scope: ["openid", ...client.scopes].join(" "),
      })),
    ],
    jwks: { keys },
    cookies: { keys: cookieKeys },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      return user && { accountId: sub, claims: () => ({ sub, name: user.name, preferred_username: user.username }) };
    },
    // The console shows who is signed in from its ID token, asking for openid alone.
    claims: { openid: ["sub", "name", "preferred_username"] },
    interactions: { url: (_ctx, interaction) => `${issuerPath}${INTERACTION_PATH}/${interaction.uid}` },
    ttl: { ClientCredentials: options.accessTokenTtlSeconds ?? 3600 },
    // Every scope any resource knows; oidc-provider drops unknown scopes silently.
    scopes: [...new Set(options.resources.flatMap((r) => r.scopes))],
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          ctx.set("content-security-policy", pagePolicy);
          ctx.body = signOutPage(form);
        },
        postLogoutSuccessSource(ctx) {
          ctx.set("content-security-policy", pagePolicy);
          ctx.body = signedOutPage();
        },
      },
      clientCredentials: { enabled: true },
      introspection: { enabled: false },
      revocation: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resources[0]!.audience,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          const resource = resources.get(indicator);
          if (!resource) throw new errors.InvalidTarget();
          return {
            audience: resource.audience,
            scope: resource.scopes.join(" "),
            accessTokenFormat: "jwt",
            accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
            jwt: { sign: { alg: "ES256" } },
          };
        },
      },
    },
  };
  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  return provider;
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: "ES256", use: "sig" };
}
