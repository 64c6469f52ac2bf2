import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { Decimal, roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { SelectedAmounts } from "../benchmark/peer-engine.js";
import type { AmountStatistics } from "../benchmark/peer-statistics.js";
import type { RankCounts } from "../benchmark/percentile-rank.js";
import { quantile, quantilePosition, type QuantileLevel } from "../benchmark/quantile.js";
import { markRank, nthMarkedRanks } from "./rank-bits.js";
import { scratchBits } from "./scratch.js";
import { comparable, type ProgramColumns, type RowRange } from "./snapshot.js";

/**
 * Figures over the matched program rows (`rows[0..count)`), each one pass: the
 * distributions and ranks of an assessment, the RPM statistics, the median limit.
 * Amounts are integer cents; the selected amounts arrive as exact cents, clamped to
 * 2^53, beyond every stored value (an index coverage holds none above 2^53 - 1).
 */

/** A request amount as comparable cents. */
export function centsOf(amount: Decimal): number {
  return comparable(amount.times(100));
}

/** Band counts and rank counts of the three amounts (SEMANTICS.md sections 4-6), in one pass. */
export function assessmentFigures(columns: ProgramColumns, rows: Uint32Array, count: number, selected: SelectedAmounts) {
  const { limit, premium, retention, limitBand, premiumBand, retentionBand } = columns;
  const [xLimit, xPremium, xRetention] = [centsOf(selected.limit), centsOf(selected.premium), centsOf(selected.retention)];
  const limitCounts = new Int32Array(LIMIT_BANDS.labels.length);
  const premiumCounts = new Int32Array(PREMIUM_BANDS.labels.length);
  const retentionCounts = new Int32Array(RETENTION_BANDS.labels.length);
  // below, equal and total of each amount
  const ranks = new Int32Array(9);
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    // NaN (no amount of that kind) fails `===` with itself.
    const l = limit[i]!;
    if (l === l) {
      limitCounts[limitBand[i]!]!++;
      ranks[2]!++;
      if (l < xLimit) ranks[0]!++;
      else if (l === xLimit) ranks[1]!++;
    }
    const p = premium[i]!;
    if (p === p) {
      premiumCounts[premiumBand[i]!]!++;
      ranks[5]!++;
      if (p < xPremium) ranks[3]!++;
      else if (p === xPremium) ranks[4]!++;
    }
    const t = retention[i]!;
    if (t === t) {
      retentionCounts[retentionBand[i]!]!++;
      ranks[8]!++;
      if (t < xRetention) ranks[6]!++;
      else if (t === xRetention) ranks[7]!++;
    }
  }
  const statistics = (bands: Int32Array, at: number): AmountStatistics => ({
    bandCounts: Array.from(bands),
    rank: { below: ranks[at]!, equal: ranks[at + 1]!, total: ranks[at + 2]! },
  });
  return { limit: statistics(limitCounts, 0), premium: statistics(premiumCounts, 3), retention: statistics(retentionCounts, 6) };
}

export interface RpmFiguresOfRows {
  firstQuartile: Decimal;
  median: Decimal;
  fourthQuartile: Decimal;
  maxRpm: Decimal;
  rank: RankCounts;
}

const QUARTILES: QuantileLevel[] = ["0.25", "0.5", "0.75"];

/**
 * RPM quartiles (rounded to cents), the largest RPM, and the client's rank (SEMANTICS.md
 * section 7). An RPM above 2^53 - 1 cents (a tiny limit) is compared exactly, in BigInt.
 */
export function rpmFiguresOfRows(
  columns: ProgramColumns,
  largeRpms: ReadonlyMap<number, bigint>,
  coverage: RowRange,
  rows: Uint32Array,
  count: number,
  clientRpm: Decimal,
): RpmFiguresOfRows {
  const { rpm, rpmRank } = columns;
  const bits = scratchBits(coverage.end - coverage.start);
  const x = centsOf(clientRpm);
  const exactX = BigInt(clientRpm.times(100).toFixed(0));
  let n = 0;
  let below = 0;
  let equal = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const value = rpm[i]!;
    if (value !== value) continue;
    markRank(bits, rpmRank[i]!);
    n++;
    if (value > Number.MAX_SAFE_INTEGER) {
      const exact = largeRpms.get(i)!;
      if (exact < exactX) below++;
      else if (exact === exactX) equal++;
    } else if (value < x) below++;
    else if (value === x) equal++;
  }
  const valueAt = orderStatistics(bits, coverage, columns.rowByRpmRank, n, [...QUARTILES.flatMap((p) => neighbours(n, p)), n - 1], (row) =>
    largeRpms.has(row) ? new Decimal(largeRpms.get(row)!.toString()) : new Decimal(rpm[row]!),
  );
  const [firstQuartile, median, fourthQuartile] = QUARTILES.map((p) => roundHalfAwayFromZero(quantile(n, p, valueAt).div(100), 2)) as [Decimal, Decimal, Decimal];
  const maxRpm = n === 0 ? new Decimal(0) : valueAt(n - 1).div(100);
  return { firstQuartile, median, fourthQuartile, maxRpm, rank: { below, equal, total: n } };
}

/** The median limit of the rows, rounded to whole dollars (SEMANTICS.md section 9). */
export function medianLimitOfRows(columns: ProgramColumns, coverage: RowRange, rows: Uint32Array, count: number): Decimal {
  const { limit, limitRank } = columns;
  const bits = scratchBits(coverage.end - coverage.start);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    if (limit[i]! === limit[i]!) {
      markRank(bits, limitRank[i]!);
      n++;
    }
  }
  const valueAt = orderStatistics(bits, coverage, columns.rowByLimitRank, n, neighbours(n, "0.5"), (row) => new Decimal(limit[row]!));
  return roundHalfAwayFromZero(quantile(n, "0.5", valueAt).div(100), 0);
}

/** The positions (0-based, among n values) of the two values q(p) interpolates. */
function neighbours(n: number, p: QuantileLevel): number[] {
  const { index } = quantilePosition(n, p);
  return [index, index + 1];
}

/**
 * The values at the wanted positions among the n marked ranks, as a lookup: the k-th
 * marked rank is the k-th smallest value, read from its row.
 */
function orderStatistics(
  bits: Uint32Array,
  coverage: RowRange,
  rowByRank: Uint32Array,
  n: number,
  wanted: number[],
  valueOf: (row: number) => Decimal,
): (position: number) => Decimal {
  const positions = [...new Set(wanted.filter((k) => k >= 0 && k < n))].sort((a, b) => a - b);
  const ranks = nthMarkedRanks(bits, coverage.end - coverage.start, positions);
  const values = new Map(positions.map((k, j) => [k, valueOf(rowByRank[coverage.start + ranks[j]!]!)]));
  return (position) => values.get(position)!;
}
