import { protocolOf, requestInfoOf } from "../load-control/request-info.js";
import { answeredWhole, type NodeRequest, type NodeResponse } from "../transcoding/node-types.js";
import { requestPath } from "../transcoding/request-target.js";
import { outcomeCode } from "./outcome-code.js";

/** How a request ended: what its log line and its metrics both record. */
export interface CallEnd {
  path: string;
  protocol: string;
  status: number;
  /** The outcome the caller got (outcome-code.ts). */
  code: string;
  /** Whether the answer reached the caller whole. */
  answeredWhole: boolean;
  /** From `started` to the response's close. */
  durationMs: number;
}

/**
 * Calls `ended` once the request has ended: its response closed and, when a handler
 * ran the call, that handler settled. A caller may be gone while the handler still
 * computes (issue 49): the outcome, and so the code, is known only then. `closed`, if
 * given, is called at the close itself.
 */
export function whenCallEnds(
  req: NodeRequest,
  res: NodeResponse,
  started: number,
  ended: (end: CallEnd) => void,
  closed?: () => void,
): void {
  // `on`, not `once`: the response is closed once and then dropped, and `once` costs a wrapper.
  res.on("close", () => {
    closed?.();
    const durationMs = performance.now() - started;
    const whole = answeredWhole(res);
    const record = () => {
      const path = requestPath(req);
      const protocol = protocolOf(req, path);
      const status = res.statusCode;
      const code = outcomeCode(requestInfoOf(req)?.outcome.code, status, protocol, whole);
      ended({ path, protocol, status, code, answeredWhole: whole, durationMs });
    };
    const info = requestInfoOf(req);
    if (info) info.whenSettled(record);
    else record();
  });
}
