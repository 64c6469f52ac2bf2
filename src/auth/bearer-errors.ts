import { Code, ConnectError } from "@connectrpc/connect";

/** The realm of every challenge (RFC 6750, 3). */
const REALM = "commercialpolicybenchmark";

/**
 * Authentication failures as RFC 6750 describes them, carried in one ConnectError
 * for every protocol: the code (`unauthenticated`, `permission_denied`) for gRPC and
 * Connect, and the `WWW-Authenticate` challenge in its metadata for REST.
 */
export function missingToken(): ConnectError {
  return new ConnectError("an access token is required", Code.Unauthenticated, {
    "www-authenticate": `Bearer realm="${REALM}"`,
  });
}

export function invalidToken(description: string): ConnectError {
  return new ConnectError(description, Code.Unauthenticated, {
    "www-authenticate": `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"`,
  });
}

export function insufficientScope(missing: readonly string[]): ConnectError {
  const description = `the token lacks the scope${missing.length > 1 ? "s" : ""} ${missing.join(" ")}`;
  return new ConnectError(description, Code.PermissionDenied, {
    "www-authenticate": `Bearer realm="${REALM}", error="insufficient_scope", error_description="${description}", scope="${missing.join(" ")}"`,
  });
}
