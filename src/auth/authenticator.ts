import { createContextKey, type Interceptor } from "@connectrpc/connect";
import { requestInfoKey, type RequestInfo } from "../load-control/request-info.js";
import type { Identity } from "./identity.js";
import type { VerifiedTokenStats } from "./verified-tokens.js";

/**
 * Turns the Authorization header of a call into an identity, or throws a
 * ConnectError (`unauthenticated`, `permission_denied`). The one authentication
 * step of every protocol: REST reaches the handlers through the same interceptor.
 */
export interface Authenticator {
  authenticate(authorization: string | null): Promise<Identity>;
  /**
   * The identity of a token verified recently, found at once without verifying anything
   * (its cache of verified tokens); undefined when `authenticate` must decide.
   */
  recognize?(authorization: string | null): Identity | undefined;
  /** Whether it can verify tokens now (signing keys loaded); /readyz reports it. */
  ready(): boolean;
  /** Its cache of verified tokens, if it keeps one. */
  tokenCache?(): VerifiedTokenStats;
}

export const identityKey = createContextKey<Identity | undefined>(undefined, { description: "the caller" });

/** Services that answer without a token: health checks stay open (CONVENTIONS.md, Health). */
const OPEN_SERVICES = new Set(["grpc.health.v1.Health"]);

export function createAuthInterceptor(authenticator: Authenticator): Interceptor {
  return (next) => async (req) => {
    if (OPEN_SERVICES.has(req.service.typeName)) return next(req);
    const identity = await identify(
      authenticator,
      req.header.get("authorization"),
      req.contextValues.get(requestInfoKey),
    );
    req.contextValues.set(identityKey, identity);
    return next(req);
  };
}

/** Authenticates a call's Authorization header and names the caller in its request's log line. */
export async function identify(
  authenticator: Authenticator,
  authorization: string | null,
  info: RequestInfo | undefined,
): Promise<Identity> {
  return nameCaller(await authenticator.authenticate(authorization), info);
}

/** identify() for a caller the authenticator recognizes at once; undefined when identify() must run. */
export function recognize(
  authenticator: Authenticator,
  authorization: string | null,
  info: RequestInfo | undefined,
): Identity | undefined {
  const identity = authenticator.recognize?.(authorization);
  return identity && nameCaller(identity, info);
}

/** Names the caller in its request's log line. */
function nameCaller(identity: Identity, info: RequestInfo | undefined): Identity {
  if (info) {
    info.outcome.subject = identity.subject;
    info.outcome.clientId = identity.clientId;
  }
  return identity;
}
