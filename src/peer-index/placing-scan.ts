import type { TimeWindow } from "../benchmark/time-window.js";
import { matchRows, rowFilterOf, type CompiledPeerFilter, type RowFilter } from "./peer-filter.js";
import { periodRanges, type PeriodRanges, type ProgramSnapshot } from "./period-programs.js";
import {
  addPlacingTallies,
  clearPlacingTally,
  emptyPlacingTally,
  placeRows,
  type Placing,
  type PlacingTally,
} from "./program-figures.js";
import { scratchRows } from "./scratch.js";
import type { NaicsRows } from "./snapshot.js";
import { windowDays } from "./window-rows.js";

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
  const [ranges] = periodRanges(snapshot, rowsOfCoverage, filter, [windowDays(window)]);
  return { filter: rowFilterOf(filter), placing, ranges: ranges! };
}

/** Runs of a plan's keys (chunkKeys) matched and placed one at a time into `tally`, each whole or not at all. */
export interface PlacingTallier {
  tally: PlacingTally;
  place(run: number): void;
}

export function placingTallier(snapshot: ProgramSnapshot, plan: PlacingPlan, runs: Int32Array): PlacingTallier {
  const tally = emptyPlacingTally();
  const own = emptyPlacingTally();
  const { programs } = snapshot;
  return {
    tally,
    place(run) {
      const { starts, ends } = plan.ranges;
      let size = 0;
      for (let k = runs[run]!; k < runs[run + 1]!; k++) size += ends[k]! - starts[k]!;
      const rows = scratchRows("programs", size);
      let count = 0;
      for (let k = runs[run]!; k < runs[run + 1]!; k++)
        count = matchRows(programs, plan.filter, starts[k]!, ends[k]!, rows, count);
      // Into a tally of its own, added once whole: a run that fails adds nothing.
      clearPlacingTally(own);
      placeRows(programs, plan.placing, rows, count, own);
      addPlacingTallies(tally, own);
    },
  };
}
