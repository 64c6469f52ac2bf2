import { receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { collectGarbage } from "./forced-collection.js";
import { programsOfPeriod, type ProgramSnapshot } from "./period-programs.js";
import {
  ANSWERED,
  POSTED,
  STARTED,
  claimPeriod,
  joinClaims,
  type ScanAnswer,
  type ScanMessage,
} from "./scan-protocol.js";

/**
 * The body of the scan thread (scan-thread.ts): waits on the shared word the server
 * thread counts its messages in, then takes every message on the port: a snapshot
 * replaces the one held (and a collection frees the one before, shared columns
 * included, once the server thread has collected too); a job's periods are taken in
 * turn with the server thread, from the snapshot held.
 */
const { control, port } = workerData as { control: Int32Array; port: MessagePort };
let snapshot: ProgramSnapshot | undefined;
let taken = 0;
Atomics.store(control, STARTED, 1);

for (;;) {
  Atomics.wait(control, POSTED, taken);
  taken = Atomics.load(control, POSTED);
  // Collected here, outside the frame that held the replaced snapshot: a stale
  // register there could keep its shared columns alive through the collection.
  if (takeMessages()) collectGarbage();
}

/** Takes every message on the port; whether a snapshot replaced the one held. */
function takeMessages(): boolean {
  let replaced = false;
  for (let message = receive(); message; message = receive()) {
    if (message.kind === "snapshot") {
      replaced ||= snapshot !== undefined;
      snapshot = message.snapshot;
    } else {
      takePeriods(message);
    }
  }
  return replaced;
}

/**
 * Joins a job while periods are left, then takes them one by one, as the server thread
 * does, and answers with those it computed. It takes none when the job is not of the
 * snapshot held, and stops at a failure: the server thread computes what is missing
 * (and meets the same failure, and reports it).
 */
function takePeriods({ id, version, filter, periods }: Extract<ScanMessage, { kind: "periods" }>): void {
  const held = snapshot?.version === version ? snapshot : undefined;
  const { joined, taken: first } = joinClaims(control, id, periods.length, held !== undefined);
  // Not joined: the server thread took every period, and waits for no answer.
  if (!joined) return;
  const answer: ScanAnswer = { id, taken: [], periods: [] };
  try {
    for (let k = first; k >= 0 && held; k = claimPeriod(control, id, periods.length)) {
      answer.periods.push(programsOfPeriod(held, filter, periods[k]!));
      answer.taken.push(k);
    }
  } catch {
    // The periods taken and not answered are the server thread's to compute.
  }
  port.postMessage(answer);
  Atomics.add(control, ANSWERED, 1);
  Atomics.notify(control, ANSWERED);
}

function receive(): ScanMessage | undefined {
  return receiveMessageOnPort(port)?.message as ScanMessage | undefined;
}
