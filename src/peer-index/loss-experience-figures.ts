import { Decimal } from "../benchmark/decimal.js";
import { sumOf } from "../benchmark/limit-adequacy.js";
import type {
  LossExperienceFigures,
  LossExperienceSpan,
  PaidLossStatistics,
} from "../benchmark/loss-experience-statistics.js";
import { quantile } from "../benchmark/quantile.js";
import { dayNumber } from "./day-number.js";
import { countMatches, firstAbove, matchRows, type CompiledPeerFilter } from "./peer-filter.js";
import { forEachMarkedRank, markRank } from "./rank-bits.js";
import { scratchBits, scratchBytes, scratchRows } from "./scratch.js";
import { comparable, type LossColumns, type NaicsRows, type ProgramColumns, type RowRange } from "./snapshot.js";

/**
 * A loss experience's figures from the snapshot (SEMANTICS.md section 15). Programs per
 * year: in each NAICS key the group's codes match, rows are sorted by day, so a
 * calendar year is one range found by binary search; the rows are matched year after
 * year into scratch space, so that each year's rows, and all of them, lie in one run
 * (the disclosure rule counts who they came from). Loss events: their ranks in amount
 * order within the coverage (LossColumns.rank, computed at build) give each year's paid
 * amounts sorted, without a sort.
 */

/** A year's matched program rows: `rows[start .. start + count)`. */
export interface YearRows {
  start: number;
  count: number;
}

/**
 * The matched program rows of each year of the span, oldest first, in one buffer
 * (`rows`), year after year; with `gather` false, only counted (no row written: a
 * third less time over the broadest group's 927K rows at Advisen scale).
 */
export function programsByYear(
  programs: ProgramColumns,
  rowsOfCoverage: NaicsRows,
  filter: CompiledPeerFilter,
  span: LossExperienceSpan,
  gather: boolean,
): { rows: Uint32Array; years: YearRows[] } {
  const { byNaics } = rowsOfCoverage;
  const keys = filter.naicsKeys.filter((key) => byNaics[key] !== byNaics[key + 1]);
  // Year first + y holds the days after ends[y] up to ends[y + 1]: each year's last day.
  const ends = Array.from({ length: span.last - span.first + 2 }, (_, y) => dayNumber(`${span.first - 1 + y}-12-31`));
  const rows = scratchRows("programs", rowsOfCoverage.end - rowsOfCoverage.start);
  // Where each key's next year starts: a year's end is the next one's start.
  const at = Int32Array.from(keys, (key) => firstAbove(programs.day, byNaics[key]!, byNaics[key + 1]!, ends[0]!));
  const years: YearRows[] = [];
  let count = 0;
  for (let y = 0; y + 1 < ends.length; y++) {
    const start = count;
    keys.forEach((key, k) => {
      const end = firstAbove(programs.day, at[k]!, byNaics[key + 1]!, ends[y + 1]!);
      count = gather
        ? matchRows(programs, filter, at[k]!, end, rows, count)
        : count + countMatches(programs, filter, at[k]!, end);
      at[k] = end;
    });
    years.push({ start, count: count - start });
  }
  return { rows, years };
}

/** The loss figures of a loss experience: everything but the program count, per year and in total. */
export type LossFigures = Omit<LossExperienceFigures, "programCount" | "contributors">;

/**
 * The loss figures of each year of the span and of all of them, from the matched loss
 * rows of the span's loss years (`rows[0..count)`). Each paid row's rank is marked and
 * its year noted at the rank; reading the marked ranks in order gives every year's paid
 * amounts ascending: O(matched + coverage / 32).
 */
export function lossFiguresByYear(
  losses: LossColumns,
  coverage: RowRange,
  matched: { rows: Uint32Array; count: number },
  span: LossExperienceSpan,
  limits: readonly Decimal[],
): { years: LossFigures[]; total: LossFigures } {
  const { year, rank, caseAmount } = losses;
  const yearCount = span.last - span.first + 1;
  const size = coverage.end - coverage.start;
  const bits = scratchBits(size);
  // Only the marked ranks' bytes are read: no clearing.
  const yearAtRank = scratchBytes(size);
  // Cases are in amount order, the $0 ones first: a loss is paid when its rank is past them.
  const firstPaid = firstPaidRank(caseAmount, coverage);
  const lossCounts = new Int32Array(yearCount);
  const paidCounts = new Int32Array(yearCount);
  for (let r = 0; r < matched.count; r++) {
    const row = matched.rows[r]!;
    const y = year[row]! - span.first;
    lossCounts[y]!++;
    const k = rank[row]!;
    if (k >= firstPaid) {
      paidCounts[y]!++;
      markRank(bits, k);
      yearAtRank[k] = y;
    }
  }
  const sorted = Array.from(paidCounts, (n) => new Float64Array(n));
  const all = new Float64Array(paidCounts.reduce((sum, n) => sum + n, 0));
  const filled = new Int32Array(yearCount);
  let n = 0;
  forEachMarkedRank(bits, size, (k) => {
    const amount = caseAmount[coverage.start + k]!;
    const y = yearAtRank[k]!;
    sorted[y]![filled[y]!++] = amount;
    all[n++] = amount;
  });
  // A whole-dollar amount is above a limit exactly when it is above the limit's whole dollars.
  const bounds = limits.map((limit) => comparable(limit.floor()));
  return {
    years: sorted.map((amounts, y) => ({ lossCount: lossCounts[y]!, ...paidFigures(amounts, bounds) })),
    total: { lossCount: lossCounts.reduce((sum, n) => sum + n, 0), ...paidFigures(all, bounds) },
  };
}

/** The rank of a coverage's first case above $0 (its size when there is none): binary search over the cases in order. */
function firstPaidRank(caseAmount: Float64Array, { start, end }: RowRange): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (caseAmount[mid]! > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo - start;
}

/** The statistics of paid amounts sorted ascending, and how many lie above each bound. */
function paidFigures(
  amounts: Float64Array,
  bounds: readonly number[],
): { paid: PaidLossStatistics; exceeding: number[] } {
  const n = amounts.length;
  const at = (i: number) => new Decimal(amounts[i]!);
  return {
    paid: {
      count: n,
      firstQuartile: quantile(n, "0.25", at),
      median: quantile(n, "0.5", at),
      thirdQuartile: quantile(n, "0.75", at),
      sum: sumOf(amounts),
      max: n === 0 ? 0 : amounts[n - 1]!,
    },
    exceeding: bounds.map((bound) => n - atMost(amounts, bound)),
  };
}

/** How many of the ascending `amounts` are at most `bound` (binary search). */
function atMost(amounts: Float64Array, bound: number): number {
  let lo = 0;
  let hi = amounts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (amounts[mid]! > bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
