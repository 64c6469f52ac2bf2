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
  /**
   * Takes a place at once, running or queued, or says why none is given: what lets a
   * caller be refused, or queued in arrival order, before its request is even read.
   */
  hold(): GatePlace | GateRefusal;
  /** Whether a call arriving now would wait or be refused: no turn is free, or others wait already. */
  busy(): boolean;
  /** Whether a call arriving now would be refused. */
  full(): GateRefusal | undefined;
  stats(): { running: number; queued: number; refused: number; serviceMs: number; turnEveryMs: number };
}

/** A place held at the gate (hold), running or queued. */
export interface GatePlace {
  /** Whether its turn has come (it runs, or would once its holder takes it). */
  readonly admitted: boolean;
  /** Resolves to the turn's release once it comes; rejects with the signal's reason, giving the place up, once it aborts. */
  turn(signal: AbortSignal): Promise<() => void>;
  /** Gives the place up, or its turn if it came and was not taken; nothing once taken. */
  leave(): void;
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

/** Ends a turn; `used` false for a turn given back unused (its call ended before taking it). */
type TurnRelease = (used?: boolean) => void;

export function createAdmissionGate({ concurrency, maxQueue, maxWaitMs }: GateOptions): AdmissionGate {
  let running = 0;
  let refused = 0;
  /** Running average of how long a turn takes, in ms. */
  let serviceMs = 0;
  /** Running average of the time between two turns ending while others waited, in ms; 0 before any. */
  let busyGapMs = 0;
  /** When the last turn ended with others waiting (so the next gap is one of a full gate), or undefined. */
  let endedWithQueue: number | undefined;
  const queue: Place[] = [];

  /** A turn begins; its release says whether it was used (a turn given back unused says nothing of how long turns take). */
  const start = (): TurnRelease => {
    running++;
    const began = performance.now();
    let released = false;
    return (used = true) => {
      if (released) return;
      released = true;
      running--;
      if (used) {
        const now = performance.now();
        serviceMs += SMOOTHING * (now - began - serviceMs);
        if (endedWithQueue !== undefined) {
          busyGapMs ||= serviceMs / concurrency; // two turns may end together: one gap says little alone
          busyGapMs += SMOOTHING * (now - endedWithQueue - busyGapMs);
        }
        endedWithQueue = queue.length > 0 ? now : undefined;
      }
      if (queue.length > 0) setImmediate(handOn);
    };
  };
  const handOn = () => {
    while (running < concurrency && queue.length > 0) queue.shift()!.admit(start());
  };
  const expectedWaitMs = () => (queue.length + 1) * (busyGapMs || serviceMs / concurrency);
  const refuse = () => {
    refused++;
    return new GateRefusal(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(expectedWaitMs() / 1000))));
  };
  // A turn just released is handed on a loop iteration later: until then, arrivals queue behind the waiters.
  const mustWait = () => running >= concurrency || queue.length > 0;
  const mustRefuse = () => mustWait() && (queue.length >= maxQueue || expectedWaitMs() > maxWaitMs);
  const hold = (): Place | GateRefusal => {
    if (!mustWait()) return new Place(queue, start());
    if (mustRefuse()) return refuse();
    const place = new Place(queue);
    queue.push(place);
    return place;
  };

  return {
    enter(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      const place = hold();
      return place instanceof GateRefusal ? Promise.reject(place) : place.turn(signal);
    },
    hold,
    busy: mustWait,
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

/** A place in the gate: queued until admitted with its turn's release, which its holder takes or gives back. */
class Place implements GatePlace {
  #release: TurnRelease | undefined;
  #taken = false;
  #left = false;
  /** Hands the turn to a holder waiting for it (turn), once admitted. */
  #handTurn: ((release: TurnRelease) => void) | undefined;

  constructor(
    private readonly queue: Place[],
    release?: TurnRelease,
  ) {
    this.#release = release;
  }

  get admitted(): boolean {
    return this.#release !== undefined;
  }

  admit(release: TurnRelease): void {
    this.#release = release;
    this.#handTurn?.(release);
  }

  turn(signal: AbortSignal): Promise<() => void> {
    if (this.#taken || this.#left) return Promise.reject(new Error("this place's turn was already taken or given up"));
    if (signal.aborted) {
      this.leave();
      return Promise.reject(signal.reason);
    }
    if (this.#release) {
      this.#taken = true;
      return Promise.resolve(this.#release);
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#handTurn = undefined;
        this.leave();
        reject(signal.reason);
      };
      this.#handTurn = (release) => {
        signal.removeEventListener("abort", onAbort);
        this.#taken = true;
        resolve(release);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  leave(): void {
    if (this.#taken) return;
    this.#left = true;
    if (this.#release) {
      this.#taken = true;
      this.#release(false);
      return;
    }
    const at = this.queue.indexOf(this);
    if (at >= 0) this.queue.splice(at, 1);
  }
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;
