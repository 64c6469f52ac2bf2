import { Code, ConnectError } from "@connectrpc/connect";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import type { Logger } from "pino";
import type { Authenticator } from "./authenticator.js";
import type { Identity } from "./identity.js";
import { insufficientScope, invalidToken, missingToken } from "./bearer-errors.js";
import { discoverProvider, type ProviderMetadata } from "./discovery.js";
import { VerifiedTokens, type VerifiedTokenStats } from "./verified-tokens.js";

export interface JwtAuthenticatorOptions {
  /** AUTH_ISSUER: its discovery document names the JWKS. */
  issuer: string;
  /** AUTH_AUDIENCE: every token's `aud` must contain it. */
  audience: string;
  /** AUTH_REQUIRED_SCOPES: every token must carry them all (`scope` or `scp`). */
  requiredScopes: readonly string[];
  log: Logger;
  /** The clock of `exp`/`nbf` checks; tests move it instead of sleeping. */
  now?: () => Date;
  /** How soon an unknown `kid` may refetch the JWKS again (jose's cooldown). */
  jwksCooldownMs?: number;
  /**
   * How long the JWKS, and a token's verification, are trusted before being checked
   * again: a key removed from the JWKS is honoured for at most twice this. Default 30 s.
   */
  trustMs?: number;
  /** Told the discovery document's endpoints once keys are loaded (the console's policy allows its token endpoint). */
  onDiscovered?: (provider: ProviderMetadata) => void;
}

export interface JwtAuthenticator extends Authenticator {
  /** Loads the signing keys in the background, retrying with backoff until they load. */
  start(): void;
  stop(): void;
  recognize(authorization: string | null): Identity | undefined;
  tokenCache(): VerifiedTokenStats;
}

// Asymmetric algorithms only: `none` and the HS* family are refused (RFC 8725, 3.1).
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const CLOCK_TOLERANCE_SECONDS = 60;
const MAX_BACKOFF_MS = 30_000;
const DEFAULT_TRUST_MS = 30_000;
const MAX_CACHED_TOKENS = 10_000;

/**
 * Verifies OpenID Connect access tokens (JWT) with jose against the issuer's JWKS,
 * found through its discovery document. Keys are cached and refetched when a token
 * names an unknown `kid`, so the provider can rotate keys without a restart, and at
 * the latest `trustMs` after the last fetch, so a key the provider withdraws stops
 * being honoured. A token verified once is trusted again without its signature check
 * until its `exp`, for `trustMs` at most (verified-tokens.ts).
 */
export function createJwtAuthenticator(options: JwtAuthenticatorOptions): JwtAuthenticator {
  const trustMs = options.trustMs ?? DEFAULT_TRUST_MS;
  const verified = new VerifiedTokens({
    maxAgeMs: trustMs,
    maxEntries: MAX_CACHED_TOKENS,
    now: () => (options.now?.() ?? new Date()).getTime(),
  });
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function load(attempt: number): Promise<void> {
    try {
      const provider = await discoverProvider(options.issuer);
      const { jwksUri } = provider;
      const remote = createRemoteJWKSet(jwksUri, {
        cooldownDuration: options.jwksCooldownMs ?? 30_000,
        cacheMaxAge: trustMs,
        timeoutDuration: 5_000,
      });
      await remote.reload();
      options.onDiscovered?.(provider);
      keys = remote;
      options.log.info({ issuer: options.issuer, jwksUri: jwksUri.href }, "signing keys loaded");
    } catch (error) {
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
      options.log.warn({ err: error, issuer: options.issuer, retryInMs: delay }, "identity provider unreachable");
      if (!stopped) timer = setTimeout(() => void load(attempt + 1), delay).unref();
    }
  }

  return {
    start: () => void load(0),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    ready: () => keys !== undefined,
    tokenCache: () => verified.stats(),

    recognize(authorization) {
      const token = authorization && keys ? bearerToken(authorization) : undefined;
      return token === undefined ? undefined : verified.known(token);
    },

    async authenticate(authorization) {
      if (!authorization || authorization.trim() === "") throw missingToken();
      const token = bearerToken(authorization);
      if (token === undefined) throw invalidToken("the Authorization header must be Bearer followed by a token");
      if (!keys) throw new ConnectError("the identity provider's signing keys are not loaded yet", Code.Unavailable);
      const known = verified.lookup(token);
      if (known.identity) return known.identity;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: options.now?.(),
        }));
      } catch (error) {
        throw verificationError(error, options.log);
      }
      const scopes = scopesOf(payload);
      const missing = options.requiredScopes.filter((scope) => !scopes.includes(scope));
      if (missing.length > 0) throw insufficientScope(missing);
      const identity: Identity = {
        subject: String(payload.sub ?? ""),
        clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp) ?? stringClaim(payload.appid),
        scopes,
      };
      known.keep(identity, payload.exp);
      return identity;
    },
  };
}

/** The token of an Authorization header, if it is `Bearer <token>` (the scheme name is case-insensitive: RFC 7235, 2.1). */
function bearerToken(authorization: string): string | undefined {
  return /^\s*Bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization)?.[1];
}

/** Scopes from `scope` (space-separated, RFC 9068) or `scp` (a list or a string, Entra ID and Okta). */
function scopesOf(payload: JWTPayload): string[] {
  const claim = payload.scope ?? payload.scp;
  if (Array.isArray(claim)) return claim.filter((s): s is string => typeof s === "string");
  return typeof claim === "string" ? claim.split(" ").filter(Boolean) : [];
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A jose failure as the caller should see it; never the token itself. */
function verificationError(error: unknown, log: Logger): ConnectError {
  if (error instanceof errors.JWTExpired) return invalidToken("the token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "nbf") return invalidToken("the token is not valid yet");
    return invalidToken(`the token's ${error.claim} claim is not accepted`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return invalidToken("the token's signing algorithm is not accepted");
  if (error instanceof errors.JWKSNoMatchingKey) return invalidToken("the token is signed with an unknown key");
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalidToken("the token's signature is not valid");
  if (error instanceof errors.JWKSTimeout || error instanceof TypeError) {
    log.warn({ err: error }, "JWKS refresh failed");
    return new ConnectError("the identity provider cannot be reached; try again shortly", Code.Unavailable);
  }
  return invalidToken("the token is malformed");
}
