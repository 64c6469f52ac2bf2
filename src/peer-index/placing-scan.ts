import type { TimeWindow } from "../benchmark/time-window.js";
import { rowFilterOf, type CompiledPeerFilter, type RowFilter } from "./peer-filter.js";
import { matchRunOfKeys, windowRanges, type PeriodRanges, type ProgramSnapshot } from "./period-programs.js";
import {
  addPlacingTallies,
  clearPlacingTally,
  emptyPlacingTally,
  placeRows,
  type Placing,
  type PlacingTally,
} from "./program-figures.js";
import type { NaicsRows } from "./snapshot.js";

/**
 * An assessment's scan of a large peer group (its band counts and ranks,
 * program-figures.ts) in plain data, so that it crosses threads: the rows to match, one
 * range per NAICS key, the filter they are matched by, and the client's amounts they
 * are placed against. Both threads take runs of keys in turn (scan-thread.ts), each
 * matches and places its runs into a tally of its own, and the tallies are added: every
 * figure of the placing is a sum over rows.
 */
export interface PlacingPlan {
  filter: RowFilter;
  placing: Placing;
  /** Per NAICS key the group's codes match, its rows in the window (a trend period's ranges, for one window). */
  ranges: PeriodRanges;
}

export function placingPlan(
  snapshot: ProgramSnapshot,
  rowsOfCoverage: NaicsRows,
  filter: CompiledPeerFilter,
  window: TimeWindow,
  placing: Placing,
): PlacingPlan {
  return { filter: rowFilterOf(filter), placing, ranges: windowRanges(snapshot, rowsOfCoverage, filter, window) };
}

/** Runs of a plan's keys (chunkKeys) matched and placed one at a time into `tally`, each whole or not at all. */
export interface PlacingTallier {
  tally: PlacingTally;
  place(run: number): void;
}

export function placingTallier(snapshot: ProgramSnapshot, plan: PlacingPlan, runs: Int32Array): PlacingTallier {
  const tally = emptyPlacingTally();
  const own = emptyPlacingTally();
  return {
    tally,
    place(run) {
      const { rows, count } = matchRunOfKeys(snapshot, plan.filter, plan.ranges, runs, run);
      // Into a tally of its own, added once whole: a run that fails adds nothing.
      clearPlacingTally(own);
      placeRows(snapshot.programs, plan.placing, rows, count, own);
      addPlacingTallies(tally, own);
    },
  };
}
