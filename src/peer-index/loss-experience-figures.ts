import { Decimal, sumOf } from "../benchmark/decimal.js";
import type {
  LossExperienceFigures,
  LossExperienceSpan,
  PaidLossStatistics,
} from "../benchmark/loss-experience-statistics.js";
import { quantile } from "../benchmark/quantile.js";
import { scratchAmounts, scratchBytes } from "./scratch.js";
import { comparable, type LossColumns, type RowRange } from "./snapshot.js";

/**
 * A loss experience's loss figures from the snapshot (SEMANTICS.md section 15): the
 * loss events' ranks in amount order within their coverage (LossColumns.rank, computed
 * at build) give each year's paid amounts sorted, without a sort. The programs per
 * year are loss-experience-programs.ts's.
 */

/** The loss figures of a loss experience: everything but the program count, per year and in total. */
export type LossFigures = Omit<LossExperienceFigures, "programCount" | "contributors">;

/** A rank's note that it holds no paid loss of the group. */
const NOT_MATCHED = 0xff;

/**
 * The loss figures of each year of the span and of all of them, from the matched loss
 * rows of the span's loss years (`rows[0..count)`). Each paid row's year is noted at its
 * rank; reading the coverage's paid ranks in order then gives every year's paid amounts
 * ascending, and all of them: O(matched + coverage). The amounts are laid out in scratch
 * space, each year's after the year before's, then all of them: no array as long as
 * the amounts is made per call (the garbage of 750 KiB a call, at Advisen scale, took a
 * millisecond a call).
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
  // A year is noted in a byte, NOT_MATCHED apart (the inputs allow 20).
  if (yearCount >= NOT_MATCHED) throw new RangeError(`${yearCount} years: at most ${NOT_MATCHED - 1} are noted`);
  const size = coverage.end - coverage.start;
  // Cases are in amount order, the $0 ones first: a loss is paid when its rank is past them.
  const firstPaid = firstPaidRank(caseAmount, coverage);
  const yearAtRank = scratchBytes(size).fill(NOT_MATCHED, firstPaid, size);
  const lossCounts = new Int32Array(yearCount);
  const paidCounts = new Int32Array(yearCount);
  for (let r = 0; r < matched.count; r++) {
    const row = matched.rows[r]!;
    const y = year[row]! - span.first;
    lossCounts[y]!++;
    const k = rank[row]!;
    if (k >= firstPaid) {
      paidCounts[y]!++;
      yearAtRank[k] = y;
    }
  }
  const paid = paidCounts.reduce((sum, n) => sum + n, 0);
  const amounts = scratchAmounts(2 * paid);
  // Where each year's next amount goes; all of them go after the years'.
  const next = new Int32Array(yearCount);
  for (let y = 1; y < yearCount; y++) next[y] = next[y - 1]! + paidCounts[y - 1]!;
  const starts = next.slice();
  let n = paid;
  for (let k = firstPaid; k < size; k++) {
    const y = yearAtRank[k]!;
    if (y === NOT_MATCHED) continue;
    const amount = caseAmount[coverage.start + k]!;
    amounts[next[y]!++] = amount;
    amounts[n++] = amount;
  }
  // A whole-dollar amount is above a limit exactly when it is above the limit's whole dollars.
  const bounds = limits.map((limit) => comparable(limit.floor()));
  const figuresOf = (from: number, count: number) => paidFigures(amounts.subarray(from, from + count), bounds);
  return {
    years: Array.from({ length: yearCount }, (_, y) => ({
      lossCount: lossCounts[y]!,
      ...figuresOf(starts[y]!, paidCounts[y]!),
    })),
    total: { lossCount: lossCounts.reduce((sum, count) => sum + count, 0), ...figuresOf(paid, paid) },
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
