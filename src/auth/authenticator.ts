import { createContextKey, type Interceptor } from "@connectrpc/connect";
import { requestInfoKey } from "../rpc/request-info.js";

/** Who is calling, as the access token says. */
export interface Identity {
  readonly subject: string;
  readonly clientId?: string;
  readonly scopes: readonly string[];
}

/**
 * Turns the Authorization header of a call into an identity, or throws a
 * ConnectError (`unauthenticated`, `permission_denied`). The one authentication
 * step of every protocol: REST reaches the handlers through the same interceptor.
 */
export interface Authenticator {
  authenticate(authorization: string | null): Promise<Identity>;
  /** Whether it can verify tokens now (signing keys loaded); /readyz reports it. */
  ready(): boolean;
}

export const identityKey = createContextKey<Identity | undefined>(undefined, { description: "the caller" });

/** Services that answer without a token: health checks stay open (CONVENTIONS.md, Health). */
const OPEN_SERVICES = new Set(["grpc.health.v1.Health"]);

export function createAuthInterceptor(authenticator: Authenticator): Interceptor {
  return (next) => async (req) => {
    if (OPEN_SERVICES.has(req.service.typeName)) return next(req);
    const identity = await authenticator.authenticate(req.header.get("authorization"));
    req.contextValues.set(identityKey, identity);
    const info = req.contextValues.get(requestInfoKey);
    if (info) Object.assign(info.outcome, { subject: identity.subject, clientId: identity.clientId });
    return next(req);
  };
}

