import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { attachRequestInfo, type RequestInfo } from "../load-control/request-info.js";
import { whenCallEnds } from "../metrics/call-end.js";
import { traceIdOf } from "./trace-context.js";

// CONVENTIONS.md: a caller's own id is kept when it is 1 to 128 of these characters.
const CALLER_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives the request its id (the caller's, when acceptable, else a new one), echoes
 * it in `X-Request-Id`, and writes the request's one log line when it ends: method,
 * path, protocol, status, outcome code, caller, duration, request id, and the trace id of
 * a W3C traceparent. Never the token.
 */
export function beginRequest(req: NodeRequest, res: NodeResponse, log: Logger): RequestInfo {
  const offered = req.headers["x-request-id"];
  const requestId = typeof offered === "string" && CALLER_REQUEST_ID.test(offered) ? offered : randomUUID();
  // The caller's trace (W3C traceparent), so that its lines join it in their tracing.
  const traceId = traceIdOf(req.headers.traceparent);
  const started = performance.now();
  const info = new LoggedRequest(requestId, log, traceId, started);
  attachRequestInfo(req, info);
  res.setHeader("x-request-id", requestId);
  whenCallEnds(req, res, started, ({ path, protocol, status, code, answeredWhole, durationMs }) => {
    const line = {
      requestId,
      traceId,
      method: req.method,
      path,
      protocol,
      status,
      code,
      subject: info.outcome.subject,
      clientId: info.outcome.clientId,
      // To the microsecond: a double's every digit costs the log line half a microsecond.
      durationMs: Math.round(durationMs * 1000) / 1000,
      aborted: !answeredWhole || undefined,
    };
    log[levelOf(status, code)](line, "request");
  });
  return info;
}

/**
 * A bug is an error. A refusal the service chose (503 / unavailable: load shed, a
 * drain, the database away) is a warning: an operator's alert on errors must not fire
 * at every shed request, 10,000 a second in a retry storm.
 */
function levelOf(status: number, code: string | undefined): "error" | "warn" | "info" {
  if (status === 503 || code === "unavailable") return "warn";
  if (status >= 500 || code === "internal" || code === "unknown" || code === "data_loss") return "error";
  return "info";
}

/**
 * A request's info, its child logger made when first needed: most requests log only
 * their line, written without one. A class, so the getter lives on the prototype: an
 * object literal with its own getter cost a third of the throughput of a cached answer,
 * as V8 kept every request's objects alive past their young-generation collections.
 */
class LoggedRequest implements RequestInfo {
  readonly outcome: RequestInfo["outcome"] = {};
  #child: Logger | undefined;
  #handlersRunning = 0;
  #whenSettled: (() => void)[] | undefined;

  constructor(
    readonly requestId: string,
    private readonly root: Logger,
    private readonly traceId: string | undefined,
    readonly receivedAt: number,
  ) {}

  handlerStarted(): () => void {
    this.#handlersRunning++;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      if (--this.#handlersRunning > 0) return;
      const waiting = this.#whenSettled;
      this.#whenSettled = undefined;
      waiting?.forEach((then) => then());
    };
  }

  whenSettled(then: () => void): void {
    if (this.#handlersRunning === 0) then();
    else (this.#whenSettled ??= []).push(then);
  }

  /** Every line of the request carries its id and its caller's trace id. */
  get log(): Logger {
    return (this.#child ??= this.root.child({ requestId: this.requestId, traceId: this.traceId }));
  }
}
