import { refusal } from "./refusal.js";
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { GateRefusal, type AdmissionGate } from "../load-control/admission-gate.js";
import { withRequestSignal } from "../store/query-cancellation.js";

/**
 * Every call ends with its request (issue 14):
 * - one whose deadline has passed (gRPC's grpc-timeout, Connect's connect-timeout-ms),
 *   or whose caller has gone, is not computed; one under way has its PostgreSQL
 *   statement cancelled (query-cancellation.ts);
 * - the expensive calls, those that compute over a peer group, take a turn at the
 *   admission gate; beyond its queue they are refused at once with `unavailable` and a
 *   Retry-After. Lookups, search and health never wait behind them.
 */
export function createAdmissionInterceptor(
  gate: AdmissionGate,
  isExpensive: (service: string, method: string) => boolean,
): Interceptor {
  return (next) => async (req) => {
    const { signal } = req;
    if (signal.aborted) throw endedBy(signal.reason);
    let release: (() => void) | undefined;
    if (isExpensive(req.service.typeName, req.method.name)) {
      try {
        release = await gate.enter(signal);
      } catch (reason) {
        if (reason instanceof GateRefusal) throw atCapacity(reason);
        throw endedBy(reason);
      }
    }
    try {
      const res = await withRequestSignal(signal, () => next(req));
      const handOver = release && req.contextValues.get(turnHandOverKey);
      if (handOver) [handOver.release, release] = [release, undefined];
      return res;
    } catch (error) {
      // A statement cancelled because the request ended fails as 57014: report why it ended.
      if (signal.aborted) throw endedBy(signal.reason);
      throw error;
    } finally {
      release?.();
    }
  };
}

/**
 * Where an in-process caller (the REST face) takes over an answered call's turn at the
 * gate, to release it once it has written and compressed the answer: for a large
 * answer that is most of the work, and the gate must bound it too.
 */
export interface TurnHandOver {
  release?: () => void;
}

export const turnHandOverKey = createContextKey<TurnHandOver | undefined>(undefined, {
  description: "the admission turn handed over",
});

/** A refusal at the gate, as callers see it: `unavailable`, with when to retry. */
export function atCapacity(gateRefusal: GateRefusal): ConnectError {
  return refusal(gateRefusal.message, gateRefusal.retryAfterSeconds);
}

/** Why a request ended before its answer: its deadline (deadline_exceeded), or its caller going away (canceled). */
function endedBy(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  return new ConnectError("the request was cancelled by its caller", Code.Canceled);
}
