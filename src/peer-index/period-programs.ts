import type { QuantileLevel } from "../benchmark/quantile.js";
import { matchCountingTiers, type CompiledPeerFilter, type RowFilter } from "./peer-filter.js";
import { neighbours } from "./program-figures.js";
import { scratchBits, scratchRows } from "./scratch.js";
import type { NaicsRows, PeerSnapshot } from "./snapshot.js";
import { exactCents, selectCountedAmounts, tierCounts, type Amount, type SelectedRows } from "./tier-select.js";
import { rowsInWindow, type WindowDays } from "./window-rows.js";

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
  /** Per amount: how many rows have it, and the row at each position the quartiles read. */
  selected: Record<Amount, SelectedRows>;
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

/**
 * The programs of each period (a market trend's, SEMANTICS.md section 13), period after
 * period: its ranges' rows matched straight into scratch rows while their amounts' tiers
 * are counted, then its companies counted in a bit per company, and the rows at the
 * quartiles' positions selected (tier-select.ts, O(rows)). `withRows` sees each period's
 * rows before the next period reuses the scratch space. The scan thread runs this for
 * the older periods while the server thread runs it for the newer (index-engine.ts).
 */
export function periodPrograms(
  snapshot: ProgramSnapshot,
  filter: RowFilter,
  periods: readonly PeriodRanges[],
  withRows?: (rows: Uint32Array) => void,
): PeriodPrograms[] {
  const { programs } = snapshot;
  const scratch = scratchRows("programs", Math.max(0, ...periods.map(({ size }) => size)));
  const counts = tierCounts();
  const exact = exactCents(programs, snapshot.largeRpms);
  const positionsOf = (n: number) => QUARTILE_LEVELS.flatMap((p) => neighbours(n, p));
  return periods.map(({ starts, ends }) => {
    let count = 0;
    for (let i = 0; i < starts.length; i++)
      count = matchCountingTiers(programs, filter, starts[i]!, ends[i]!, scratch, count, counts);
    const rows = scratch.subarray(0, count);
    withRows?.(rows);
    return {
      programCount: count,
      companyCount: distinctCompanies(snapshot, rows),
      selected: selectCountedAmounts(programs, rows, counts, positionsOf, exact),
    };
  });
}

/**
 * Where to split the periods between the server thread (the first, newer ones) and the
 * scan thread (the rest): at about half of their rows. The number of periods when they
 * hold fewer than `minRows` rows.
 */
export function splitPoint(periods: readonly PeriodRanges[], minRows: number): number {
  const total = periods.reduce((sum, { size }) => sum + size, 0);
  if (total < minRows || periods.length < 2) return periods.length;
  let before = 0;
  for (let k = 0; k < periods.length - 1; k++) {
    // Period k goes to the scan thread when more than half of it lies past the middle.
    if (before + periods[k]!.size / 2 >= total / 2) return Math.max(k, 1);
    before += periods[k]!.size;
  }
  return periods.length - 1;
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
