/**
 * Index computations take turns with everything else on the event loop: one per loop
 * iteration, each in its own setImmediate. Without this, requests that arrive
 * together are read in one poll phase and all computed before the loop comes back
 * round: 32 limit-adequacy requests of a broad group kept health checks and timers
 * waiting 2 s. With it, a health check waits for one answer at most.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function runNext(): void {
  const next = waiting.shift();
  if (waiting.length > 0) setImmediate(runNext);
  else scheduled = false;
  next?.();
}

/** Runs `work` on a turn of its own; its answer (or error) comes back as a promise. */
export function inTurn<T>(work: () => T | PromiseLike<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    });
    if (!scheduled) {
      scheduled = true;
      setImmediate(runNext);
    }
  });
}
