/**
 * Admission control for expensive work (issue 14): at most `concurrency` at once, and
 * a bounded queue behind them. A request the queue cannot take, or would keep longer
 * than `maxWaitMs` by the recent service times, is refused at once: under overload a
 * caller learns within milliseconds to come back, instead of waiting out a timeout.
 *
 * The wait is foreseen from how often turns end while the queue is not empty: a turn's
 * own length divided by the concurrency assumed the turns ran side by side, but the
 * peer index computes on the one event loop, and a flood of refusals takes its share
 * of it too; the SQL engine's answers were then given 2 s of queue and waited 20.
 *
 * A turn is handed to the next in the queue on a later turn of the event loop
 * (setImmediate), never straight from the one that finished: the peer index computes
 * synchronously, and a chain of computations run back to back would keep the event
 * loop from health checks, lookups and new connections.
 */
export interface AdmissionGate {
  /** Waits for a turn; resolves to its release. Throws GateRefusal, or the signal's reason once it aborts. */
  enter(signal: AbortSignal): Promise<() => void>;
  /** Whether a call arriving now would be refused: what lets a caller be refused before its body is even read. */
  full(): GateRefusal | undefined;
  stats(): { running: number; queued: number; refused: number; serviceMs: number; turnEveryMs: number };
}

/**
 * The longest Retry-After given: well inside the idle time a connection is kept
 * (http-server.ts: 60 s for HTTP/2, 65 s for HTTP/1.1), so that a caller who waits as
 * told finds its connection open.
 */
export const MAX_RETRY_AFTER_SECONDS = 30;

export class GateRefusal extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("the server is at capacity; retry shortly");
  }
}

export interface GateOptions {
  concurrency: number;
  maxQueue: number;
  /** The longest a request may expect to wait in the queue. */
  maxWaitMs: number;
}

/** Weight of the newest service time in the running average. */
const SMOOTHING = 0.2;

interface Waiter {
  admit(): void;
}

export function createAdmissionGate({ concurrency, maxQueue, maxWaitMs }: GateOptions): AdmissionGate {
  let running = 0;
  let refused = 0;
  /** Running average of how long a turn takes, in ms. */
  let serviceMs = 0;
  /** Running average of the time between two turns ending while others waited, in ms; 0 before any. */
  let busyGapMs = 0;
  /** When the last turn ended with others waiting (so the next gap is one of a full gate), or undefined. */
  let endedWithQueue: number | undefined;
  const queue: Waiter[] = [];

  const start = (): (() => void) => {
    running++;
    const began = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      const now = performance.now();
      serviceMs += SMOOTHING * (now - began - serviceMs);
      if (endedWithQueue !== undefined) {
        busyGapMs ||= serviceMs / concurrency; // two turns may end together: one gap says little alone
        busyGapMs += SMOOTHING * (now - endedWithQueue - busyGapMs);
      }
      endedWithQueue = queue.length > 0 ? now : undefined;
      if (queue.length > 0) setImmediate(handOn);
    };
  };
  const handOn = () => {
    while (running < concurrency && queue.length > 0) queue.shift()!.admit();
  };
  const expectedWaitMs = () => (queue.length + 1) * (busyGapMs || serviceMs / concurrency);
  const refuse = () => {
    refused++;
    return new GateRefusal(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(expectedWaitMs() / 1000))));
  };
  // A turn just released is handed on a loop iteration later: until then, arrivals queue behind the waiters.
  const mustWait = () => running >= concurrency || queue.length > 0;
  const mustRefuse = () => mustWait() && (queue.length >= maxQueue || expectedWaitMs() > maxWaitMs);

  return {
    enter(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (!mustWait()) return Promise.resolve(start());
      if (mustRefuse()) return Promise.reject(refuse());
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(signal.reason);
        };
        const waiter: Waiter = {
          admit() {
            signal.removeEventListener("abort", onAbort);
            resolve(start());
          },
        };
        signal.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
      });
    },
    full: () => (mustRefuse() ? refuse() : undefined),
    stats: () => ({
      running,
      queued: queue.length,
      refused,
      serviceMs: tenths(serviceMs),
      turnEveryMs: tenths(busyGapMs),
    }),
  };
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;
