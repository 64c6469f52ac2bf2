import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whether anyone still waits for the call being computed (issues 14 and 49). A call
 * ends for its caller when the caller goes away or cancels (the signal), or when its
 * deadline passes (grpc-timeout, connect-timeout-ms). Work for a call that has ended is
 * abandoned at the next safe point: before each turn on the event loop (turns.ts),
 * before each PostgreSQL statement (query-cancellation.ts), and between the parts of a
 * long computation.
 *
 * The deadline is read from the clock, not only from the signal: the signal's timer
 * cannot fire while the event loop computes, so a 1 ms deadline would otherwise be
 * noticed only after the whole computation, and answered `ok` to nobody.
 *
 * The caller reaches the work through AsyncLocalStorage rather than through every
 * function's parameters: the admission interceptor runs the call inside `forCaller`,
 * and everything the call starts, however deep, sees it.
 */
export interface Caller {
  /** Aborts when the caller goes away, cancels, or the call's timer fires. */
  readonly signal: AbortSignal;
  /** When the deadline passes, on performance.now()'s clock; undefined for none. */
  readonly deadline: number | undefined;
}

/** Why a call was abandoned at a safe point: its deadline had passed. */
export class DeadlinePassed extends Error {
  override name = "DeadlinePassed";
  constructor() {
    super("the call's deadline passed");
  }
}

const current = new AsyncLocalStorage<Caller>();

/** Runs `work` as the call of `caller`: safe points inside it stop once the caller no longer waits. */
export function forCaller<T>(caller: Caller, work: () => T): T {
  return current.run(caller, work);
}

/**
 * Runs `work` as no call's. Work queued by one call and run from another's callback
 * (a turn, a stream's event) would otherwise run as that call's, and stop with it.
 */
export function outsideAnyCall<T>(work: () => T): T {
  return current.exit(work);
}

/** The caller of the call being computed, if any. */
export function currentCaller(): Caller | undefined {
  return current.getStore();
}

/** Why `caller` no longer waits (the signal's reason, or DeadlinePassed), or undefined while it does or is none. */
export function callerGone(caller: Caller | undefined): unknown {
  if (!caller) return undefined;
  // The deadline first: a gRPC client cancels the call when its deadline passes, and the
  // deadline is the better reason.
  if (caller.deadline !== undefined && performance.now() >= caller.deadline) return new DeadlinePassed();
  // Node always gives a reason (an AbortError when none was given); the fallback is for the type.
  if (caller.signal.aborted) return caller.signal.reason ?? new Error("the call was cancelled");
  return undefined;
}

/** A safe point: throws why the current call's caller no longer waits, if it does not. */
export function stopIfCallerGone(): void {
  const gone = callerGone(current.getStore());
  if (gone !== undefined) throw gone;
}
