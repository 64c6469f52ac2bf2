import type { PeriodPrograms } from "./period-programs.js";
import type { SharedJob } from "./scan-thread.js";
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
  const done = new Uint8Array(runs);
  for (let k = job.claim(); k >= 0; k = job.claim()) {
    tallier.tally(k);
    done[k] = 1;
  }
  const theirs = job.result();
  if (theirs?.tallies) addTallies(tallier.tallies, theirs.tallies);
  theirs?.taken.forEach((k) => (done[k] = 1));
  for (let k = 0; k < runs; k++) if (!done[k]) tallier.tally(k);
  return tallier.tallies;
}
