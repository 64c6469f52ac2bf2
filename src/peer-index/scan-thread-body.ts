import { receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { collectGarbage } from "./forced-collection.js";
import { periodPrograms, type ProgramSnapshot } from "./period-programs.js";
import { ANSWERED, POSTED, STARTED, type ScanAnswer, type ScanMessage } from "./scan-protocol.js";

/**
 * The body of the scan thread (scan-thread.ts): waits on the shared word the server
 * thread counts its messages in, then takes every message on the port: a snapshot
 * replaces the one held (and a collection frees the one before, shared columns
 * included, once the server thread has collected too); a job is answered from the
 * snapshot held, or with nothing when it is not the job's.
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
      port.postMessage({ id: message.id, periods: periodsOf(message) } satisfies ScanAnswer);
      Atomics.add(control, ANSWERED, 1);
      Atomics.notify(control, ANSWERED);
    }
  }
  return replaced;
}

/** The job's periods; undefined (the server thread computes them) when they are not of the snapshot held, or fail. */
function periodsOf(job: Extract<ScanMessage, { kind: "periods" }>) {
  if (snapshot?.version !== job.version) return undefined;
  try {
    return periodPrograms(snapshot, job.filter, job.periods);
  } catch {
    // The server thread's own computation meets the same failure, and reports it.
    return undefined;
  }
}

function receive(): ScanMessage | undefined {
  return receiveMessageOnPort(port)?.message as ScanMessage | undefined;
}
