/**
 * The trace id of a W3C Trace Context `traceparent` header
 * (`00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`), so that a request's log
 * line joins the caller's trace. Undefined for anything malformed, as the
 * recommendation asks (an all-zero id is invalid; versions other than 00 are read by
 * their first four fields, and version ff is invalid).
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_PARENT = "0".repeat(16);

export function traceIdOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== "string") return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === "ff" || traceId === ZERO_TRACE || parentId === ZERO_PARENT) return undefined;
  if (version === "00" && rest !== undefined) return undefined; // version 00 has exactly four fields
  return traceId;
}
