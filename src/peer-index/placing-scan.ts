import type { TimeWindow } from "../benchmark/time-window.js";
import { matchRows, type CompiledPeerFilter, type RowFilter } from "./peer-filter.js";
import type { ProgramSnapshot } from "./period-programs.js";
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
import { rowsInWindow, windowDays } from "./window-rows.js";

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
  /** Per NAICS key the group's codes match: its rows in the window, [starts, ends). */
  starts: Int32Array;
  ends: Int32Array;
}

export function placingPlan(
  { programs }: ProgramSnapshot,
  { byNaics }: NaicsRows,
  filter: CompiledPeerFilter,
  window: TimeWindow,
  placing: Placing,
): PlacingPlan {
  const days = windowDays(window);
  const keys = filter.naicsKeys.filter((key) => byNaics[key] !== byNaics[key + 1]);
  const starts = new Int32Array(keys.length);
  const ends = new Int32Array(keys.length);
  keys.forEach((key, k) => {
    const range = rowsInWindow(programs.day, { start: byNaics[key]!, end: byNaics[key + 1]! }, days);
    starts[k] = range.start;
    ends[k] = range.end;
  });
  return { filter, placing, starts, ends };
}

/** Rows in the plan: what decides whether sharing it is worth a round trip. */
export function placingRows({ starts, ends }: PlacingPlan): number {
  let rows = 0;
  for (let k = 0; k < starts.length; k++) rows += ends[k]! - starts[k]!;
  return rows;
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
      let size = 0;
      for (let k = runs[run]!; k < runs[run + 1]!; k++) size += plan.ends[k]! - plan.starts[k]!;
      const rows = scratchRows("programs", size);
      let count = 0;
      for (let k = runs[run]!; k < runs[run + 1]!; k++)
        count = matchRows(programs, plan.filter, plan.starts[k]!, plan.ends[k]!, rows, count);
      // Into a tally of its own, added once whole: a run that fails adds nothing.
      clearPlacingTally(own);
      placeRows(programs, plan.placing, rows, count, own);
      addPlacingTallies(tally, own);
    },
  };
}
