import { callerGone, currentCaller, forCaller, outsideAnyCall } from "./caller-watch.js";

/**
 * Long synchronous work (peer-index computations, and writing their large answers)
 * takes turns with everything else on the event loop: one turn per loop iteration,
 * each in its own setImmediate. Without this, requests that arrive together are read
 * in one poll phase and all computed before the loop comes back round: 32
 * limit-adequacy requests of a broad group kept health checks and timers waiting 2 s.
 * With it, a health check waits for one turn at most.
 *
 * New connections come before turns. libuv accepts one connection per loop iteration
 * (libuv/libuv#3696), so while every iteration holds a turn of tens of milliseconds,
 * a burst of connections is accepted at that pace: 128 clients connecting at once
 * waited up to 1 s to be accepted. After an iteration that accepted one, turns wait
 * for an iteration that accepted none, which is short since it holds no turn; for at
 * most MAX_DEFER_MS, so that a steady stream of connections cannot starve the work.
 * Requests come before turns the same way (server/new-requests.ts): the first
 * requests of a burst of new connections arrive over several iterations.
 *
 * Between the two come the calls queued at the admission gate as they arrived
 * (afterArrivals): they read and check their requests once a burst is all in, so
 * that what the burst's refusals wait for is the burst itself, not the intake of
 * every call placed before them.
 */
const MAX_DEFER_MS = 200;

/**
 * How many held calls read their requests in one loop iteration once arrivals pause
 * (afterArrivals): each costs well under a millisecond, and a health check arriving
 * meanwhile waits for one batch at most.
 */
const INTAKES_PER_ITERATION = 8;

const waiting: (() => void)[] = [];
/** Calls that wait for arrivals to pause before reading their requests (afterArrivals). */
const intakes: (() => void)[] = [];
let scheduled = false;
/** Whether arrivals were found paused and held calls' intakes ran since: the next turn need not wait again. */
let pauseGranted = false;
/** Since when turns have waited for connections, or 0. */
let deferringSince = 0;
/** Whether something that comes before turns arrived since last asked (deferTurnsWhile). */
const arrivals = new Set<() => boolean>();

function runNext(): void {
  if (!pauseGranted && mustDefer()) return void setImmediate(runNext);
  // Held calls' intake before any turn: it is short, and it brings their errors out early.
  if (intakes.length > 0) {
    for (const intake of intakes.splice(0, INTAKES_PER_ITERATION)) intake();
    // The pause found is theirs and the next turn's: under a steady stream of arrivals
    // (callers that ignore Retry-After), intakes must not take the turns' rare pauses.
    pauseGranted = true;
    return void setImmediate(runNext);
  }
  pauseGranted = false;
  const next = waiting.shift();
  if (waiting.length > 0) setImmediate(runNext);
  else scheduled = false;
  next?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(runNext);
}

function mustDefer(): boolean {
  let arrived = false;
  // Every one is asked, so that each starts counting afresh.
  for (const arrivedSinceAsked of arrivals) if (arrivedSinceAsked()) arrived = true;
  const now = performance.now();
  if (arrived && deferringSince === 0) deferringSince = now;
  if (arrived && now - deferringSince < MAX_DEFER_MS) return true;
  deferringSince = 0;
  return false;
}

/**
 * Runs `work` on a turn of its own; its answer (or error) comes back as a promise.
 * A turn is a safe point (caller-watch.ts): when it comes, work for a call whose
 * caller no longer waits is not run, and the promise rejects with why.
 */
export function inTurn<T>(work: () => T | PromiseLike<T>): Promise<T> {
  const caller = currentCaller();
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      try {
        const gone = callerGone(caller);
        if (gone !== undefined) reject(gone);
        // Run as its own caller's, or as none's: the loop of turns was set going by whichever came first.
        else resolve(caller ? forCaller(caller, work) : outsideAnyCall(work));
      } catch (error) {
        reject(error);
      }
    });
    schedule();
  });
}

/**
 * Resolves on a loop iteration in which nothing that comes first arrived (at most
 * MAX_DEFER_MS after a burst began, as for turns). A call that holds a place at the
 * admission gate reads and checks its request only then: during a burst, every
 * request is read and given its place, or refused, before any of them costs more.
 */
export function afterArrivals(): Promise<void> {
  return new Promise((resolve) => {
    intakes.push(resolve);
    schedule();
  });
}

/**
 * Makes turns wait while `arrivedSinceAsked` says something came that goes first (a
 * listener's new connections). Returns the way to stop.
 */
export function deferTurnsWhile(arrivedSinceAsked: () => boolean): () => void {
  arrivals.add(arrivedSinceAsked);
  return () => void arrivals.delete(arrivedSinceAsked);
}
