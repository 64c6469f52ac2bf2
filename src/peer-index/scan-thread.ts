import { availableParallelism } from "node:os";
import type { Logger } from "pino";
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from "node:worker_threads";
import {
  ANSWERED,
  CLAIMS,
  CONTROL_WORDS,
  POSTED,
  STARTED,
  claimPart,
  openClaims,
  partsOf,
  threadJoined,
  type ScanAnswer,
  type ScanJob,
  type ScanMessage,
} from "./scan-protocol.js";
import type { PeerSnapshot } from "./snapshot.js";
import { workerRunning } from "./worker-module.js";

/**
 * An answer not in by then means the thread is gone (a crash is only heard of at the
 * server thread's next turn) or stuck: the server thread computes the parts itself,
 * and the thread is not asked again. A whole trend takes milliseconds.
 */
const ANSWER_DEADLINE_MS = 2_000;

/**
 * Rows below which a scan is not shared: a round trip to the thread costs some 30 µs,
 * 50,000 rows some 1 ms.
 */
const MIN_ROWS_TO_SPLIT = 50_000;

export interface ScanThreadOptions {
  /** Told when the thread fails, and the server thread scans alone from then on. */
  log?: Pick<Logger, "warn">;
  /** The machine's cores; by default what Node sees (availableParallelism). */
  cores?: number;
  /** Default MIN_ROWS_TO_SPLIT; tests share every scan. */
  minRowsToSplit?: number;
  /**
   * Tests: the server thread takes no part of a job before the thread has joined it
   * (and taken its first), so that every shared job has the thread's part in it.
   */
  waitForJoin?: boolean;
}

/** A job's parts, taken in turn by both threads. */
export interface SharedJob {
  /** The next part for the server thread to compute: its position in the job, or -1 once none is left. */
  claim(): number;
  /**
   * Once `claim()` has said -1: the thread's answer, the parts it computed and what they
   * came to (any other part is the server thread's to compute); undefined when it took
   * none. Waits for the thread to finish the part it is on.
   */
  result(): ScanAnswer | undefined;
}

export interface ScanThread {
  /** Scans of fewer rows are not shared with the thread. */
  readonly minRowsToSplit: number;
  /**
   * Hands the thread the snapshot requests read from now on; it drops the one before
   * and collects its garbage, so that the shared columns can be freed
   * (release-snapshot.ts). Call it before releasing the one before.
   */
  adopt(snapshot: PeerSnapshot): void;
  /**
   * Opens a job's parts (a market trend's periods, a suggestions scan's runs of keys) to
   * the thread: it takes them in turn with the server thread, in their order. Undefined
   * when the thread cannot take part (it has not started, does not hold this snapshot,
   * or is gone).
   */
  start(snapshot: PeerSnapshot, job: ScanJob): SharedJob | undefined;
  /** Starting (it takes jobs once running), running, or retired after a failure (or closed); /readyz shows it. */
  state(): "starting" | "running" | "retired";
  /**
   * Jobs the thread joined and answered with parts, those it joined and did not (a
   * failure, too late: the server thread computed them), and the parts it computed.
   */
  counts(): { answered: number; declined: number; parts: number };
  close(): Promise<void>;
}

/**
 * A second thread that reads the snapshot's program columns beside the server thread,
 * so that one long scan uses both cores: a market trend's periods, or the runs of a
 * suggestions scan, are shared between the two. The columns are SharedArrayBuffers
 * (snapshot-builder.ts), handed over once per snapshot, not per call.
 *
 * The call stays synchronous, as every index computation is (index-engine.ts): the
 * thread waits on a shared word (Atomics.wait) rather than on its event loop; the
 * server thread posts a job, takes its parts in turn with the thread (the claim word,
 * scan-protocol.ts), then waits on another word for the thread's answer, which it
 * reads with receiveMessageOnPort. A round trip costs some 30 µs. Undefined on a machine with one core, where there is no second core to use.
 */
export function startScanThread(options: ScanThreadOptions = {}): ScanThread | undefined {
  if ((options.cores ?? availableParallelism()) < 2) return undefined;
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT));
  const { port1: port, port2 } = new MessageChannel();
  const worker: Worker = workerRunning("./scan-thread-body.ts", {
    workerData: { control, port: port2 },
    transferList: [port2],
  });
  // Waiting on a shared word keeps no handle: the server may exit under it.
  worker.unref();
  let gone = false;
  const retire = (why: string, err?: unknown) => {
    if (!gone) options.log?.warn({ err }, `${why}: the server thread scans alone from now on`);
    gone = true;
  };
  worker.once("error", (err) => retire("the scan thread failed", err));
  worker.once("exit", (code) => retire(`the scan thread stopped (exit code ${code})`));
  // Only to know it again: the snapshot's memory is the index's to keep or free.
  let held: WeakRef<PeerSnapshot> | undefined;
  let nextId = 0;
  const counts = { answered: 0, declined: 0, parts: 0 };

  function late(): void {
    counts.declined++;
    retire(`the scan thread did not answer within ${ANSWER_DEADLINE_MS} ms`);
    void worker.terminate();
  }

  function post(message: ScanMessage): void {
    port.postMessage(message);
    Atomics.add(control, POSTED, 1);
    Atomics.notify(control, POSTED);
  }

  return {
    minRowsToSplit: options.minRowsToSplit ?? MIN_ROWS_TO_SPLIT,

    adopt(snapshot) {
      if (gone) return;
      held = new WeakRef(snapshot);
      const { version, programs, companyCount, largeRpms } = snapshot;
      post({ kind: "snapshot", snapshot: { version, programs, companyCount, largeRpms } });
    },

    start(snapshot, job) {
      if (gone || held?.deref() !== snapshot || Atomics.load(control, STARTED) !== 1) return undefined;
      const id = ++nextId;
      const count = partsOf(job);
      openClaims(control, id, count);
      post({ kind: "job", id, version: snapshot.version, job });
      if (options.waitForJoin && !joinedWithin(control, ANSWER_DEADLINE_MS)) late();
      return {
        claim: () => claimPart(control, id, count),
        result() {
          // Not joined once no part is left: it never will, and no answer comes.
          if (!threadJoined(control)) return undefined;
          const answer = answerTo(id, port, control);
          if (answer === "late") {
            late();
            return undefined;
          }
          if (answer.taken.length > 0) counts.answered++;
          else counts.declined++;
          counts.parts += answer.taken.length;
          return answer;
        },
      };
    },

    state: () => (gone ? "retired" : Atomics.load(control, STARTED) === 1 ? "running" : "starting"),
    counts: () => ({ ...counts }),

    async close() {
      gone = true;
      port.close();
      await worker.terminate();
    },
  };
}

/** Waits for the answer to job `id` (earlier answers, of calls that gave up on theirs, are dropped). */
function answerTo(id: number, port: MessagePort, control: Int32Array): ScanAnswer | "late" {
  const deadline = performance.now() + ANSWER_DEADLINE_MS;
  for (;;) {
    // The thread posts its answer before it counts it: a count seen means the answer is on the port.
    const answered = Atomics.load(control, ANSWERED);
    const answer = receiveMessageOnPort(port)?.message as ScanAnswer | undefined;
    if (answer) {
      if (answer.id === id) return answer;
      continue;
    }
    const left = deadline - performance.now();
    if (left <= 0 || Atomics.wait(control, ANSWERED, answered, left) === "timed-out") return "late";
  }
}

/** Waits until the thread has joined the job under way; whether it did within `ms`. */
function joinedWithin(control: Int32Array, ms: number): boolean {
  const deadline = performance.now() + ms;
  for (;;) {
    const word = Atomics.load(control, CLAIMS);
    if (threadJoined(control)) return true;
    const left = deadline - performance.now();
    if (left <= 0 || Atomics.wait(control, CLAIMS, word, left) === "timed-out") return threadJoined(control);
  }
}
