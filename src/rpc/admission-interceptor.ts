import { refusal } from "./refusal.js";
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { GateRefusal, type AdmissionGate, type GatePlace } from "../load-control/admission-gate.js";
import { callerGone, DeadlinePassed, forCaller, type Caller } from "../load-control/caller-watch.js";
import { requestInfoKey } from "../load-control/request-info.js";
import { deadlineOf } from "./call-deadline.js";

/**
 * Every call ends with its request (issues 14 and 49):
 * - one whose deadline has passed (gRPC's grpc-timeout, Connect's connect-timeout-ms),
 *   or whose caller has gone, is not computed; one under way stops at the next safe
 *   point (caller-watch.ts), its PostgreSQL statement cancelled (query-cancellation.ts),
 *   and an answer computed past its deadline is not sent;
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
    const receivedAt = req.contextValues.get(requestInfoKey)?.receivedAt ?? performance.now();
    const caller: Caller = { signal, deadline: deadlineOf(req.header, receivedAt) };
    const stopIfGone = () => {
      const gone = callerGone(caller);
      if (gone !== undefined) throw endedBy(gone);
    };
    stopIfGone();
    let release: (() => void) | undefined;
    if (isExpensive(req.service.typeName, req.method.name)) {
      try {
        const held = req.contextValues.get(heldPlaceKey);
        release = await (held ? held.turn(signal) : gate.enter(signal));
      } catch (reason) {
        if (reason instanceof GateRefusal) throw atCapacity(reason);
        throw endedBy(reason);
      }
    }
    try {
      stopIfGone(); // it may have waited at the gate
      const res = await forCaller(caller, () => next(req));
      stopIfGone(); // not answered to nobody: the answer's encoding can cost as much as its figures
      const handOver = release && req.contextValues.get(turnHandOverKey);
      if (handOver) [handOver.release, release] = [release, undefined];
      return res;
    } catch (error) {
      // A statement cancelled because the request ended fails as 57014: report why it ended.
      const gone = callerGone(caller);
      throw gone === undefined ? error : endedBy(gone);
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

/**
 * The place an in-process caller (the REST face) took at the gate as the request
 * arrived, before reading it (admission-gate.ts, hold): the call takes its turn there.
 */
export const heldPlaceKey = createContextKey<GatePlace | undefined>(undefined, {
  description: "the place held at the admission gate",
});

/** A refusal at the gate, as callers see it: `unavailable`, with when to retry. */
export function atCapacity(gateRefusal: GateRefusal): ConnectError {
  return refusal(gateRefusal.message, gateRefusal.retryAfterSeconds);
}

/** Why a request ended before its answer: its deadline (deadline_exceeded), or its caller going away (canceled). */
function endedBy(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  if (reason instanceof DeadlinePassed) return new ConnectError("the operation timed out", Code.DeadlineExceeded);
  return new ConnectError("the request was cancelled by its caller", Code.Canceled);
}
