import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import type { RequestInfo } from "../rpc/request-info.js";
import { splitRequestTarget } from "../transcoding/request-target.js";

// CONVENTIONS.md: a caller's own id is kept when it is 1 to 128 of these characters.
const CALLER_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

const infoByRequest = new WeakMap<NodeRequest, RequestInfo>();

/**
 * Gives the request its id (the caller's, when acceptable, else a new one), echoes
 * it in `X-Request-Id`, and writes the request's one log line when it ends: method,
 * path, protocol, status, outcome code, caller, duration, request id. Never the token.
 */
export function beginRequest(req: NodeRequest, res: NodeResponse, log: Logger): RequestInfo {
  const offered = req.headers["x-request-id"];
  const requestId = typeof offered === "string" && CALLER_REQUEST_ID.test(offered) ? offered : randomUUID();
  const info: RequestInfo = { requestId, log: log.child({ requestId }), outcome: {} };
  infoByRequest.set(req, info);
  res.setHeader("x-request-id", requestId);
  const started = process.hrtime.bigint();
  res.once("close", () => {
    const status = res.statusCode;
    const line = {
      method: req.method,
      path: splitRequestTarget(req).path,
      protocol: protocolOf(req),
      status,
      code: info.outcome.code,
      subject: info.outcome.subject,
      clientId: info.outcome.clientId,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      aborted: !res.writableFinished || undefined,
    };
    if (status >= 500) info.log.error(line, "request");
    else info.log.info(line, "request");
  });
  return info;
}

/** The RequestInfo begun for a request. */
export function requestInfoOf(req: NodeRequest): RequestInfo | undefined {
  return infoByRequest.get(req);
}

function protocolOf(req: NodeRequest): string {
  const contentType = String(req.headers["content-type"] ?? "");
  if (contentType.startsWith("application/grpc-web")) return "grpc-web";
  if (contentType.startsWith("application/grpc")) return "grpc";
  if (req.headers["connect-protocol-version"] || contentType.startsWith("application/connect+")) return "connect";
  if (/^\/[a-z0-9_.]+\.[A-Za-z0-9_]+\/[A-Za-z0-9_]+$/.test(splitRequestTarget(req).path)) return "connect";
  return "rest";
}
