import { receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { collectGarbage } from "./forced-collection.js";
import { programsOfPeriod, type ProgramSnapshot } from "./period-programs.js";
import {
  ANSWERED,
  POSTED,
  STARTED,
  claimPart,
  joinClaims,
  partsOf,
  type ScanAnswer,
  type ScanJob,
  type ScanMessage,
} from "./scan-protocol.js";
import { placingTallier } from "./placing-scan.js";
import { rpmTallier } from "./rpm-scan.js";
import { runTallier } from "./widening-scan.js";

/**
 * The body of the scan thread (scan-thread.ts): waits on the shared word the server
 * thread counts its messages in, then takes every message on the port: a snapshot
 * replaces the one held (and a collection frees the one before, shared columns
 * included, once the server thread has collected too); a job's parts are taken in
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
      takeParts(message);
    }
  }
  return replaced;
}

/**
 * Joins a job while parts are left, then takes them one by one, as the server thread
 * does, and answers with those it computed. It takes none when the job is not of the
 * snapshot held, and stops at a failure: the server thread computes what is missing
 * (and meets the same failure, and reports it).
 */
function takeParts({ id, version, job }: Extract<ScanMessage, { kind: "job" }>): void {
  const held = snapshot?.version === version ? snapshot : undefined;
  const count = partsOf(job);
  const { joined, taken: first } = joinClaims(control, id, count, held !== undefined);
  // Not joined: the server thread took every part, and waits for no answer.
  if (!joined) return;
  const answer: ScanAnswer = { id, taken: [], periods: [], tallies: undefined, placing: undefined, rpm: undefined };
  try {
    const compute = held && partComputer(held, job, answer);
    for (let k = first; k >= 0 && compute; k = claimPart(control, id, count)) {
      compute(k);
      answer.taken.push(k);
    }
  } catch {
    // The parts taken and not answered are the server thread's to compute.
  }
  port.postMessage(answer);
  Atomics.add(control, ANSWERED, 1);
  Atomics.notify(control, ANSWERED);
}

/** Computes part k of the job into the answer: a period's programs, or a run's tally added to the answer's. */
function partComputer(held: ProgramSnapshot, job: ScanJob, answer: ScanAnswer): (k: number) => void {
  if (job.kind === "periods")
    return (k) => answer.periods.push(programsOfPeriod(held, job.filter, job.bounds, job.periods[k]!));
  if (job.kind === "placing") {
    const placer = placingTallier(held, job.plan, job.runs);
    answer.placing = placer.tally;
    return (k) => placer.place(k);
  }
  if (job.kind === "rpm") {
    const counter = rpmTallier(held, job.plan, job.runs);
    answer.rpm = counter.tally;
    return (k) => counter.count(k);
  }
  const tallier = runTallier(held, job.plan, job.runs);
  answer.tallies = tallier.tallies;
  return (k) => tallier.tally(k);
}

function receive(): ScanMessage | undefined {
  return receiveMessageOnPort(port)?.message as ScanMessage | undefined;
}
