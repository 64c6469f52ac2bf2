import Provider, { errors, type Configuration } from "oidc-provider";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A client of the dev provider, allowed the client-credentials grant. */
export interface DevClient {
  clientId: string;
  clientSecret: string;
  /** The scopes its tokens may carry. */
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
 * resources (RFC 8707 resource indicators), signed with ES256 and published at jwks_uri.
 */
export async function createDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  let keys = options.keys?.length ? options.keys : [await newSigningKey()];
  let provider = createProvider(options, keys);
  return {
    issuer: options.issuer,
    handle(req, res, prefix = "") {
      // oidc-provider builds its endpoint URLs from originalUrl (NOTES.md).
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = (req.url ?? "/").slice(prefix.length) || "/";
      void provider.callback()(req, res);
    },
    keys: () => keys,
    async rotateKey() {
      keys = [await newSigningKey(), ...keys];
      provider = createProvider(options, keys);
    },
    retireOldKeys() {
      keys = keys.slice(0, 1);
      provider = createProvider(options, keys);
    },
  };
}

function createProvider(options: DevIdentityProviderOptions, keys: JWK[]): Provider {
  const resources = new Map(options.resources.map((r) => [r.audience, r]));
  const configuration: Configuration = {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: "ES256", // the only key type the provider holds
      scope: client.scopes.join(" "),
    })),
    jwks: { keys },
    ttl: { ClientCredentials: options.accessTokenTtlSeconds ?? 3600 },
    // Every scope any resource knows; oidc-provider drops unknown scopes silently.
    scopes: [...new Set(options.resources.flatMap((r) => r.scopes))],
    features: {
      devInteractions: { enabled: false },
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
