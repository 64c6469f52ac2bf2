import { createContextKey } from "@connectrpc/connect";
import type { IncomingHttpHeaders } from "node:http";
import type { Logger } from "pino";

/** What every handler may know of the call it serves, whatever the protocol. */
export interface RequestInfo {
  readonly requestId: string;
  /** A child logger bound to the request id. */
  readonly log: Logger;
  /** When the request arrived, on performance.now()'s clock: where its deadline counts from. */
  readonly receivedAt: number;
  /** Filled in while the call runs, for the request's one log line. */
  readonly outcome: { code?: string; subject?: string; clientId?: string };
  /**
   * Marks a handler as running the call; returns what marks it settled. A response
   * may close before its handler settles (a caller gone mid-computation): the call's
   * outcome is known only then.
   */
  handlerStarted(): () => void;
  /** Calls `then` once no handler runs the call any more: at once, or when the last settles. */
  whenSettled(then: () => void): void;
}

export const requestInfoKey = createContextKey<RequestInfo | undefined>(undefined, {
  description: "request id and logger of the call",
});

/** A request of either HTTP version, as far as its info needs it. */
type IncomingRequest = { readonly headers: IncomingHttpHeaders };

// A property of the request, not a WeakMap entry: no ephemeron for the collector per request.
const INFO = Symbol("requestInfo");
type WithInfo = IncomingRequest & { [INFO]?: RequestInfo };

/** Ties a request to the info begun for it (the request log does, as the request arrives). */
export function attachRequestInfo(req: IncomingRequest, info: RequestInfo): void {
  (req as WithInfo)[INFO] = info;
}

/** The RequestInfo begun for a request. */
export function requestInfoOf(req: IncomingRequest): RequestInfo | undefined {
  return (req as WithInfo)[INFO];
}

/** The protocol a request came in, by its headers and path: grpc, grpc-web, connect or rest (the log line's and the metrics' label). */
export function protocolOf(req: IncomingRequest, path: string): string {
  const contentType = String(req.headers["content-type"] ?? "");
  if (contentType.startsWith("application/grpc-web")) return "grpc-web";
  if (contentType.startsWith("application/grpc")) return "grpc";
  if (req.headers["connect-protocol-version"] || contentType.startsWith("application/connect+")) return "connect";
  if (/^\/[a-z0-9_.]+\.[A-Za-z0-9_]+\/[A-Za-z0-9_]+$/.test(path)) return "connect";
  return "rest";
}
