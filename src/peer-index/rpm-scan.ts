import type { TimeWindow } from "../benchmark/time-window.js";
import { matchRows, rowFilterOf, type CompiledPeerFilter, type RowFilter } from "./peer-filter.js";
import { matchRunOfKeys, windowRanges, type PeriodRanges, type ProgramSnapshot } from "./period-programs.js";
import {
  addRpmTallies,
  clearRpmTally,
  emptyRpmTally,
  tallyRpms,
  type ClientRpm,
  type RpmTally,
} from "./program-figures.js";
import type { NaicsRows } from "./snapshot.js";
import type { GatherWanted } from "./tier-select.js";

/**
 * The RPM statistics' scan of a large peer group, in plain data, as an assessment's
 * placing (placing-scan.ts): both threads take runs of keys in turn, each matches its
 * runs and counts their RPMs into a tally of its own (the RPM tiers, the rows below and
 * equal to the client's), and the tallies are added. The quartiles' rows are then
 * gathered by the server thread alone (gatherInRanges): only the rows of a few tiers.
 */
export interface RpmPlan {
  filter: RowFilter;
  client: ClientRpm;
  /** Per NAICS key the group's codes match, its rows in the window. */
  ranges: PeriodRanges;
}

export function rpmPlan(
  snapshot: ProgramSnapshot,
  rowsOfCoverage: NaicsRows,
  filter: CompiledPeerFilter,
  window: TimeWindow,
  client: ClientRpm,
): RpmPlan {
  return { filter: rowFilterOf(filter), client, ranges: windowRanges(snapshot, rowsOfCoverage, filter, window) };
}

/** Runs of a plan's keys (chunkKeys) matched and counted one at a time into `tally`, each whole or not at all. */
export interface RpmTallier {
  tally: RpmTally;
  count(run: number): void;
}

export function rpmTallier(snapshot: ProgramSnapshot, plan: RpmPlan, runs: Int32Array): RpmTallier {
  const tally = emptyRpmTally();
  const own = emptyRpmTally();
  return {
    tally,
    count(run) {
      const { rows, count } = matchRunOfKeys(snapshot, plan.filter, plan.ranges, runs, run);
      // Into a tally of its own, added once whole: a run that fails adds nothing.
      clearRpmTally(own);
      tallyRpms(snapshot.programs, snapshot.largeRpms, rows, count, plan.client, own);
      addRpmTallies(tally, own);
    },
  };
}

/**
 * The plan's rows in the wanted tiers, found without the matched rows (each thread
 * kept its own): the ranges' tier column read in order, and only a row of a wanted tier
 * matched against the filter, a few hundred of the group's hundreds of thousands.
 */
export function gatherInRanges({ programs }: ProgramSnapshot, plan: RpmPlan): GatherWanted {
  const one = new Uint32Array(1);
  return (isWanted, tiers) => {
    const gathered: number[] = [];
    const { starts, ends } = plan.ranges;
    for (let k = 0; k < starts.length; k++)
      for (let i = starts[k]!; i < ends[k]!; i++)
        if (isWanted[tiers[i]!] === 1 && matchRows(programs, plan.filter, i, i + 1, one, 0) === 1) gathered.push(i);
    return gathered;
  };
}
