/**
 * Statuses back to codes, for the requests whose handler noted none: REST answers
 * written before or without a handler (a kept answer, a 304, a 404 path, a 413, a
 * shed call), the pages, and errors connect-es raised before any interceptor. The
 * inverse of src/rpc/http-status.ts where it is one-to-one, with CONVENTIONS.md's
 * 405 for a known path with the wrong method.
 */
const CODE_BY_STATUS = new Map<number, string>([
  [400, "invalid_argument"],
  [401, "unauthenticated"],
  [403, "permission_denied"],
  [404, "not_found"],
  [405, "unimplemented"],
  [408, "deadline_exceeded"],
  [409, "aborted"],
  [413, "resource_exhausted"],
  [429, "resource_exhausted"],
  [499, "canceled"],
  [501, "unimplemented"],
  [503, "unavailable"],
  [504, "deadline_exceeded"],
]);

/**
 * The outcome code of a finished request: the one the error interceptor noted when a
 * handler ran, else what its HTTP status says. A gRPC or Connect status of 200 says
 * nothing (the outcome travels in trailers or the body) and a handler always notes
 * its own: without one, the request failed before any handler, `unknown`.
 */
export function outcomeCode(noted: string | undefined, status: number, protocol: string, finished: boolean): string {
  // An answer its caller did not wait to receive whole was, for the caller, cancelled.
  if (!finished && (noted === undefined || noted === "ok")) return "canceled";
  if (noted) return noted;
  if (status < 400) return protocol === "rest" ? "ok" : "unknown";
  return CODE_BY_STATUS.get(status) ?? (status >= 500 ? "internal" : "unknown");
}
