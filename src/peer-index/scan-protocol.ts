/**
 * What the server thread and the scan thread (scan-thread.ts, scan-thread-body.ts) say to
 * each other: the messages on their port and the shared control words.
 */
import type { RowFilter } from "./peer-filter.js";
import type { PeriodPrograms, PeriodRanges, ProgramSnapshot } from "./period-programs.js";
import type { AmountTierBounds } from "./tier-select.js";
import type { PlacingPlan } from "./placing-scan.js";
import type { PlacingTally, RpmTally } from "./program-figures.js";
import type { RpmPlan } from "./rpm-scan.js";
import type { WideningPlan, WideningTallies } from "./widening-scan.js";

/**
 * A scan both threads share, in parts they take one at a time (the claim word): a
 * market trend's periods, or the runs of NAICS keys of a suggestions scan or of an
 * assessment's placing.
 */
export type ScanJob =
  | { kind: "periods"; filter: RowFilter; bounds: AmountTierBounds; periods: PeriodRanges[] }
  | { kind: "widenings"; plan: WideningPlan; runs: Int32Array }
  | { kind: "placing"; plan: PlacingPlan; runs: Int32Array }
  | { kind: "rpm"; plan: RpmPlan; runs: Int32Array };

/** How many parts a job has. */
export const partsOf = (job: ScanJob): number => (job.kind === "periods" ? job.periods.length : job.runs.length - 1);

/** A message to the scan thread: the snapshot it is handed (its program columns shared, not copied), or a job. */
export type ScanMessage =
  { kind: "snapshot"; snapshot: ProgramSnapshot } | { kind: "job"; id: number; version: number; job: ScanJob };

/**
 * The scan thread's answer to a job it joined: the parts it took (their positions in the
 * job) and what they came to: each period's programs, or the runs' tallies summed (a
 * suggestions scan's, or an assessment's placing).
 * Fewer parts than it took when it failed, none when it holds another snapshot: the
 * server thread computes whatever is missing.
 */
export interface ScanAnswer {
  id: number;
  taken: number[];
  periods: PeriodPrograms[];
  tallies: WideningTallies | undefined;
  placing: PlacingTally | undefined;
  rpm: RpmTally | undefined;
}

/**
 * Indexes into the control words: how many messages the server thread has posted, how
 * many answers the scan thread has, whether the thread has started (1): until it has
 * (its module loads in tens of milliseconds, through tsx in seconds), it gets no job;
 * and the claim word of the job under way.
 */
export const POSTED = 0;
export const ANSWERED = 1;
export const STARTED = 2;
export const CLAIMS = 3;
export const CONTROL_WORDS = 4;

/*
 * The claim word: the job's id (its low 22 bits), whether the scan thread has joined it
 * (one bit), and the next part to take (8 bits; a trend has at most 12 periods, a
 * suggestions scan or a placing 16 runs). Both threads take parts through it, one compare-and-swap each, so a thread that starts late or
 * is slowed leaves its share to the other. The thread joins only while parts are left,
 * so once none is left, the joined bit says for good whether an answer will come.
 */
const NEXT_BITS = 8;
const NEXT_MASK = (1 << NEXT_BITS) - 1;
const JOINED = 1 << NEXT_BITS;
const ID_SHIFT = NEXT_BITS + 1;
const ID_MASK = (1 << 22) - 1;

/** Opens job `id`'s parts to both threads (the server thread, before it posts the job). */
export function openClaims(control: Int32Array, id: number, count: number): void {
  if (count > NEXT_MASK) throw new RangeError(`a job of ${count} parts: at most ${NEXT_MASK}`);
  Atomics.store(control, CLAIMS, (id & ID_MASK) << ID_SHIFT);
}

/** Takes job `id`'s next part, of `count`: its position, or -1 when none is left (or the word is another job's). */
export function claimPart(control: Int32Array, id: number, count: number): number {
  return swapClaims(control, id, count, (word) => word + 1);
}

/**
 * The scan thread joins job `id` while parts are left, taking the first of its own
 * (or none when it holds another snapshot: it answers with none). Whether it joined, and
 * the position it took (-1 for none).
 */
export function joinClaims(control: Int32Array, id: number, count: number, take: boolean) {
  const next = swapClaims(control, id, count, (word) => (word | JOINED) + (take ? 1 : 0));
  if (next < 0) return { joined: false, taken: -1 };
  Atomics.notify(control, CLAIMS);
  return { joined: true, taken: take ? next : -1 };
}

/** Replaces the claim word by `change` of it while parts of job `id` are left: the next part then, or -1. */
function swapClaims(control: Int32Array, id: number, count: number, change: (word: number) => number): number {
  for (;;) {
    const word = Atomics.load(control, CLAIMS);
    const next = word & NEXT_MASK;
    if (word >>> ID_SHIFT !== (id & ID_MASK) || next >= count) return -1;
    if (Atomics.compareExchange(control, CLAIMS, word, change(word)) === word) return next;
  }
}

/** Whether the scan thread has joined the job under way (final once no part is left). */
export function threadJoined(control: Int32Array): boolean {
  return (Atomics.load(control, CLAIMS) & JOINED) !== 0;
}
