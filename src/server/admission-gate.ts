/**
 * Admission control for expensive work (issue 14): at most `concurrency` at once, and
 * a bounded queue behind them. A request the queue cannot take, or would keep longer
 * than `maxWaitMs` by the recent service times, is refused at once: under overload a
 * caller learns within milliseconds to come back, instead of waiting out a timeout.
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
  stats(): { running: number; queued: number; refused: number; serviceMs: number };
}

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
  const queue: Waiter[] = [];

  const start = (): (() => void) => {
    running++;
    const began = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      serviceMs += SMOOTHING * (performance.now() - began - serviceMs);
      if (queue.length > 0) setImmediate(handOn);
    };
  };
  const handOn = () => {
    while (running < concurrency && queue.length > 0) queue.shift()!.admit();
  };
  const expectedWaitMs = () => ((queue.length + 1) * serviceMs) / concurrency;
  const refuse = () => {
    refused++;
    return new GateRefusal(Math.max(1, Math.ceil(expectedWaitMs() / 1000)));
  };
  const mustRefuse = () => running >= concurrency && (queue.length >= maxQueue || expectedWaitMs() > maxWaitMs);

  return {
    enter(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (running < concurrency && queue.length === 0) return Promise.resolve(start());
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
    stats: () => ({ running, queued: queue.length, refused, serviceMs: Math.round(serviceMs * 10) / 10 }),
  };
}
