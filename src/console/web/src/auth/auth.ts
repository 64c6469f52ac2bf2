import * as oauth from "oauth4webapi";
import type { ConsoleConfig } from "../config.js";
import { clearPendingLogins, lastReturnTo, savePendingLogin, takePendingLogin } from "./pending-login.js";
import { displayName, isFresh, type Session } from "./session.js";
import { clearSignedOut, markSignedOut } from "./signed-out-marker.js";
import { singleFlight } from "./single-flight.js";

/** What the page's URL was: nothing to do with sign-in, a finished sign-in, or a failed one. */
export type SignInOutcome = { kind: "none" } | { kind: "signed-in" } | { kind: "failed"; reason: string };

/**
 * Sign-in for the console: OpenID Connect authorization code with PKCE (S256), a public
 * client, through oauth4webapi. Tokens live in this object only; a reload signs in again
 * (silently when the provider still has a session).
 */
export interface Auth {
  /** The current session, or null when signed out. */
  session(): Session | null;
  /** Called whenever the session changes. Returns an unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Finishes a sign-in when the page is the provider's redirect back. Success or failure,
   * the address bar goes back to the page the sign-in started from (the peer group).
   */
  completeSignIn(): Promise<SignInOutcome>;
  /** Goes to the provider, once however often it is called; it comes back to `returnTo` (the current page by default). */
  signIn(returnTo?: string): Promise<never>;
  /** A token good for a request: the current one, a refreshed one, or a new sign-in (which leaves the page). */
  accessToken(): Promise<string>;
  /** The API refused the token (401): forget it and sign in again, back to this page. */
  renew(): Promise<never>;
  signOut(): Promise<void>;
}

/** Where the provider sends the browser back, after sign-in and after sign-out alike. */
const redirectUri = () => `${location.origin}/console/`;

export function createAuth(config: ConsoleConfig): Auth {
  const issuer = new URL(config.issuer);
  const client: oauth.Client = { client_id: config.clientId };
  const clientAuth = oauth.None();
  // oauth4webapi refuses plain http; `cpb dev` serves its provider over http on loopback.
  const insecure = issuer.protocol === "http:" && (isLoopback(issuer.hostname) || issuer.origin === location.origin);
  const httpOptions = insecure ? { [oauth.allowInsecureRequests]: true } : {};

  let current: Session | null = null;
  let metadata: Promise<oauth.AuthorizationServer> | null = null;
  const listeners = new Set<() => void>();

  const setSession = (session: Session | null) => {
    current = session;
    for (const listener of listeners) listener();
  };

  // Discovery once per page; a failure is retried on the next call rather than cached.
  const server = () => {
    metadata ??= oauth
      .discoveryRequest(issuer, httpOptions)
      .then((response) => oauth.processDiscoveryResponse(issuer, response))
      .catch((err: unknown) => {
        metadata = null;
        throw err;
      });
    return metadata;
  };

  const sessionFrom = (result: oauth.TokenEndpointResponse, previous?: Session | null): Session => ({
    accessToken: result.access_token,
    idToken: result.id_token ?? previous?.idToken,
    refreshToken: result.refresh_token ?? previous?.refreshToken,
    // Without expires_in, assume a short life so the next call renews rather than fails.
    expiresAt: Date.now() + (result.expires_in ?? 300) * 1000,
    user: result.id_token
      ? displayName(oauth.getValidatedIdTokenClaims(result))
      : (previous?.user ?? displayName(undefined)),
  });

  const startSignIn = async (returnTo: string): Promise<never> => {
    clearSignedOut();
    const as = await server();
    if (!as.authorization_endpoint) throw new Error("the identity provider publishes no authorization_endpoint");
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    savePendingLogin(state, { codeVerifier, returnTo });
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set("client_id", config.clientId);
    url.searchParams.set("redirect_uri", redirectUri());
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", config.scope);
    url.searchParams.set("state", state);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set("code_challenge_method", "S256");
    // RFC 8707: the token is for the API, not for the provider's userinfo.
    if (config.resource !== null) url.searchParams.set("resource", config.resource);
    location.assign(url.href);
    // The page is leaving; nothing after this should run.
    return new Promise<never>(() => {});
  };

  // Several calls refused at once (401s, or an expired token) make one trip to the provider, not one each.
  let leaving: Promise<never> | null = null;
  const signIn = (returnTo = location.pathname + location.search + location.hash): Promise<never> => {
    leaving ??= startSignIn(returnTo).catch((err: unknown) => {
      leaving = null;
      throw err;
    });
    return leaving;
  };

  const resourceParameter: Record<string, string> = config.resource === null ? {} : { resource: config.resource };

  const refresh = async (session: Session): Promise<Session | null> => {
    if (!session.refreshToken) return null;
    try {
      const as = await server();
      const response = await oauth.refreshTokenGrantRequest(as, client, clientAuth, session.refreshToken, {
        ...httpOptions,
        additionalParameters: resourceParameter,
      });
      return sessionFrom(await oauth.processRefreshTokenResponse(as, client, response), session);
    } catch {
      // A refused refresh token just means a full sign-in.
      return null;
    }
  };

  // Concurrent calls that find the token stale share one refresh (or one sign-in).
  const renewToken = singleFlight(async (): Promise<string> => {
    const renewed = current ? await refresh(current) : null;
    if (renewed) {
      setSession(renewed);
      return renewed.accessToken;
    }
    return signIn();
  });

  return {
    session: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async completeSignIn() {
      const callbackUrl = new URL(location.href);
      const state = callbackUrl.searchParams.get("state");
      if (state === null || (!callbackUrl.searchParams.has("code") && !callbackUrl.searchParams.has("error")))
        return { kind: "none" };
      const pending = takePendingLogin(state);
      // Success or not, the code leaves the address bar and the broker's page (the peer group) comes back,
      // so that signing in again from here returns to it.
      history.replaceState(null, "", pending?.returnTo ?? lastReturnTo() ?? "/console/");
      if (!pending)
        return {
          kind: "failed",
          reason: "the provider's answer matches no sign-in this tab started (an old or copied link)",
        };
      try {
        const as = await server();
        // Checks state and turns an error=... answer into an exception with the provider's words.
        const callback = oauth.validateAuthResponse(as, client, callbackUrl, state);
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          clientAuth,
          callback,
          redirectUri(),
          pending.codeVerifier,
          {
            ...httpOptions,
            additionalParameters: resourceParameter,
          },
        );
        const result = await oauth.processAuthorizationCodeResponse(as, client, response);
        clearPendingLogins();
        setSession(sessionFrom(result));
        return { kind: "signed-in" };
      } catch (err) {
        return { kind: "failed", reason: signInFailure(err) };
      }
    },

    signIn,

    async accessToken() {
      if (current && isFresh(current)) return current.accessToken;
      return renewToken();
    },

    async renew() {
      setSession(null);
      return signIn();
    },

    async signOut() {
      const session = current;
      setSession(null);
      clearPendingLogins();
      markSignedOut();
      const as = await server().catch(() => null);
      if (as?.end_session_endpoint) {
        const url = new URL(as.end_session_endpoint);
        if (session?.idToken) url.searchParams.set("id_token_hint", session.idToken);
        url.searchParams.set("client_id", config.clientId);
        url.searchParams.set("post_logout_redirect_uri", redirectUri());
        location.assign(url.href);
        return;
      }
      // No RP-initiated logout at this provider: the tokens are gone from memory, which is all we hold.
      history.replaceState(null, "", "/console/");
    },
  };
}

/** The provider's words for a failed sign-in (its `error` and `error_description`), else the error's message. */
function signInFailure(err: unknown): string {
  if (err instanceof oauth.AuthorizationResponseError || err instanceof oauth.ResponseBodyError) {
    return `the identity provider answered ${err.error}${err.error_description ? `: ${err.error_description}` : ""}`;
  }
  return err instanceof Error ? err.message : String(err);
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}
