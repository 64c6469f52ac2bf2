import type { QuantileLevel } from "../benchmark/quantile.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { matchCountingTiers, matchRows, type CompiledPeerFilter, type RowFilter } from "./peer-filter.js";
import { neighbours } from "./program-figures.js";
import { scratchBits, scratchRows } from "./scratch.js";
import type { NaicsRows, PeerSnapshot } from "./snapshot.js";
import {
  exactCents,
  selectCountedAmounts,
  tierCounts,
  type Amount,
  type AmountTierBounds,
  type SelectedValues,
} from "./tier-select.js";
import { rowsInWindow, windowDays, type WindowDays } from "./window-rows.js";

export const QUARTILE_LEVELS: readonly QuantileLevel[] = ["0.25", "0.5", "0.75"];

/** What reading a snapshot's programs needs: what the scan thread holds of it (scan-thread.ts). */
export type ProgramSnapshot = Pick<PeerSnapshot, "version" | "programs" | "companyCount" | "largeRpms">;

/**
 * A period's rows to match: in each NAICS key the peer group's codes match, the period is
 * one range of rows (rows are sorted by day there): [starts[i], ends[i]) for each i, and
 * `size` rows in all.
 */
export interface PeriodRanges {
  starts: Int32Array;
  ends: Int32Array;
  size: number;
}

/** A market-trend period's programs, in plain data (it crosses threads): counts, and the rows its quartiles read. */
export interface PeriodPrograms {
  programCount: number;
  companyCount: number;
  /** Per amount: how many rows have it, and its exact cents at each position the quartiles read. */
  selected: Record<Amount, SelectedValues>;
}

/** Each window's ranges of rows (binary searches on the day column of each key the filter matches). */
export function periodRanges(
  { programs }: ProgramSnapshot,
  { byNaics }: NaicsRows,
  filter: CompiledPeerFilter,
  windows: readonly WindowDays[],
): PeriodRanges[] {
  const keys = filter.naicsKeys.filter((key) => byNaics[key] !== byNaics[key + 1]);
  return windows.map((days) => {
    const starts = new Int32Array(keys.length);
    const ends = new Int32Array(keys.length);
    let size = 0;
    keys.forEach((key, i) => {
      const range = rowsInWindow(programs.day, { start: byNaics[key]!, end: byNaics[key + 1]! }, days);
      starts[i] = range.start;
      ends[i] = range.end;
      size += range.end - range.start;
    });
    return { starts, ends, size };
  });
}

/** One window's ranges of rows: a shared assessment's or RPM scan's (placing-scan.ts, rpm-scan.ts). */
export function windowRanges(
  snapshot: ProgramSnapshot,
  rowsOfCoverage: NaicsRows,
  filter: CompiledPeerFilter,
  window: TimeWindow,
): PeriodRanges {
  return periodRanges(snapshot, rowsOfCoverage, filter, [windowDays(window)])[0]!;
}

/**
 * The rows of a run of keys (`runs[run]` to `runs[run + 1]`, chunkKeys) of the ranges
 * that pass the filter, matched into scratch rows: what each thread of a shared scan
 * reads of the run it takes.
 */
export function matchRunOfKeys(
  { programs }: ProgramSnapshot,
  filter: RowFilter,
  { starts, ends }: PeriodRanges,
  runs: Int32Array,
  run: number,
): { rows: Uint32Array; count: number } {
  let size = 0;
  for (let k = runs[run]!; k < runs[run + 1]!; k++) size += ends[k]! - starts[k]!;
  const rows = scratchRows("programs", size);
  let count = 0;
  for (let k = runs[run]!; k < runs[run + 1]!; k++)
    count = matchRows(programs, filter, starts[k]!, ends[k]!, rows, count);
  return { rows, count };
}

/**
 * The programs of each period (a market trend's, SEMANTICS.md section 13), period after
 * period (programsOfPeriod). `withRows` sees each period's rows before the next period
 * reuses the scratch space.
 */
export function periodPrograms(
  snapshot: ProgramSnapshot,
  filter: RowFilter,
  bounds: AmountTierBounds,
  periods: readonly PeriodRanges[],
  withRows?: (rows: Uint32Array) => void,
): PeriodPrograms[] {
  return periods.map((period) => programsOfPeriod(snapshot, filter, bounds, period, withRows));
}

/**
 * A period's programs: its ranges' rows matched straight into scratch rows while their
 * amounts' tiers are counted, then its companies counted in a bit per company, and the
 * values at the quartiles' positions selected (tier-select.ts, O(rows); `bounds` are the
 * coverage's tier bounds). Both threads run it, each taking the next period of a trend
 * in turn (index-engine.ts).
 */
export function programsOfPeriod(
  snapshot: ProgramSnapshot,
  filter: RowFilter,
  bounds: AmountTierBounds,
  { starts, ends, size }: PeriodRanges,
  withRows?: (rows: Uint32Array) => void,
): PeriodPrograms {
  const { programs } = snapshot;
  const scratch = scratchRows("programs", size);
  const counts = tierCounts();
  let count = 0;
  for (let i = 0; i < starts.length; i++)
    count = matchCountingTiers(programs, filter, starts[i]!, ends[i]!, scratch, count, counts);
  const rows = scratch.subarray(0, count);
  withRows?.(rows);
  return {
    programCount: count,
    companyCount: distinctCompanies(snapshot, rows),
    selected: selectCountedAmounts(
      programs,
      rows,
      counts,
      quartilePositions,
      exactCents(programs, snapshot.largeRpms),
      bounds,
    ),
  };
}

const quartilePositions = (n: number) => QUARTILE_LEVELS.flatMap((p) => neighbours(n, p));

/** Whether a trend's periods are worth sharing with the scan thread: two or more, of `minRows` rows or more. */
export function worthSharing(periods: readonly PeriodRanges[], minRows: number): boolean {
  return periods.length > 1 && periods.reduce((sum, { size }) => sum + size, 0) >= minRows;
}

/**
 * The order in which the threads take a trend's periods: the largest first, so that the
 * last ones taken are small and neither thread waits long for the other.
 */
export function claimOrder(periods: readonly PeriodRanges[]): number[] {
  return periods.map((_, i) => i).sort((a, b) => periods[b]!.size - periods[a]!.size || a - b);
}

/**
 * Distinct companies among the rows: each company's bit set as its rows pass, counted
 * the first time. The set is a bit per company (80 KB at Advisen scale), so it stays in
 * cache where a sort of the rows' companies moved every row twice.
 */
function distinctCompanies(snapshot: ProgramSnapshot, rows: Uint32Array): number {
  const seen = scratchBits(snapshot.companyCount);
  const { company } = snapshot.programs;
  let distinct = 0;
  for (let r = 0; r < rows.length; r++) {
    const c = company[rows[r]!]!;
    const word = seen[c >>> 5]!;
    const bit = 1 << (c & 31);
    distinct += +((word & bit) === 0);
    seen[c >>> 5] = word | bit;
  }
  return distinct;
}
