import type { PeriodPrograms } from "./period-programs.js";
import type { SharedJob } from "./scan-thread.js";
import type { PlacingTallier } from "./placing-scan.js";
import { addPlacingTallies, addRpmTallies, type PlacingTally, type RpmTally } from "./program-figures.js";
import type { RpmTallier } from "./rpm-scan.js";
import type { ScanAnswer } from "./scan-protocol.js";
import { addTallies, type RunTallier, type WideningTallies } from "./widening-scan.js";

/**
 * The server thread's side of a shared job (scan-thread.ts): it takes the next part
 * until none is left, then reads the scan thread's, and computes any part the thread
 * took and did not answer.
 */

/** A trend's periods; `order` maps a part of the job to a period. */
export function periodsInTurn(
  job: SharedJob,
  order: readonly number[],
  compute: (period: number) => PeriodPrograms,
): PeriodPrograms[] {
  const programs: PeriodPrograms[] = [];
  for (let k = job.claim(); k >= 0; k = job.claim()) programs[order[k]!] = compute(order[k]!);
  const theirs = job.result();
  theirs?.taken.forEach((k, i) => (programs[order[k]!] = theirs.periods[i]!));
  order.forEach((period) => (programs[period] ??= compute(period)));
  return programs;
}

/** A suggestions scan's runs of NAICS keys, `runs` of them, tallied together. */
export function runsInTurn(job: SharedJob, runs: number, tallier: RunTallier): WideningTallies {
  return tallyInTurn(job, runs, tallier.tallies, tallier.tally, (answer) => answer.tallies, addTallies);
}

/** An assessment's placing, `runs` runs of NAICS keys, tallied together. */
export function placingInTurn(job: SharedJob, runs: number, placer: PlacingTallier): PlacingTally {
  return tallyInTurn(job, runs, placer.tally, placer.place, (answer) => answer.placing, addPlacingTallies);
}

/** An RPM scan's runs of NAICS keys, `runs` of them, counted together. */
export function rpmInTurn(job: SharedJob, runs: number, counter: RpmTallier): RpmTally {
  return tallyInTurn(job, runs, counter.tally, counter.count, (answer) => answer.rpm, addRpmTallies);
}

/** Runs each tallied whole into `tallies` (by `tally`) or not at all, the thread's runs added from its answer. */
function tallyInTurn<T>(
  job: SharedJob,
  runs: number,
  tallies: T,
  tally: (run: number) => void,
  theirsOf: (answer: ScanAnswer) => T | undefined,
  add: (into: T, from: T) => void,
): T {
  const done = new Uint8Array(runs);
  for (let k = job.claim(); k >= 0; k = job.claim()) {
    tally(k);
    done[k] = 1;
  }
  const answer = job.result();
  const theirs = answer && theirsOf(answer);
  if (theirs) add(tallies, theirs);
  answer?.taken.forEach((k) => (done[k] = 1));
  for (let k = 0; k < runs; k++) if (!done[k]) tally(k);
  return tallies;
}
