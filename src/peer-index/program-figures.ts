import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { Decimal, roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { SelectedAmounts } from "../benchmark/peer-engine.js";
import type { AmountStatistics } from "../benchmark/peer-statistics.js";
import type { RankCounts } from "../benchmark/percentile-rank.js";
import { quantile, quantilePosition, type QuantileLevel } from "../benchmark/quantile.js";
import { markRank, nthMarkedRows } from "./rank-bits.js";
import { scratchBits, scratchValues } from "./scratch.js";
import { selectPositions } from "./select.js";
import { comparable, NO_BAND, type ProgramColumns, type RowRange } from "./snapshot.js";

/**
 * Figures over the matched program rows (`rows[0..count)`), each one pass: the
 * distributions and ranks of an assessment, the RPM statistics, the median limit.
 * Amounts are integer cents; the selected amounts arrive as exact cents, clamped to
 * 2^53, beyond every stored value (an index coverage holds none above 2^53 - 1).
 */

/** A request amount as comparable cents. */
function centsOf(amount: Decimal): number {
  return comparable(amount.times(100));
}

/**
 * Band counts and rank counts of the three amounts (SEMANTICS.md sections 4-6), in one
 * pass without a branch per amount: the comparisons with x are random, and counting
 * them through branches cost three times as much (mispredictions). NaN (no amount)
 * compares false, so it is neither below nor equal, and its band is NO_BAND, a slot
 * of its own.
 */
export function assessmentFigures(
  columns: ProgramColumns,
  rows: Uint32Array,
  count: number,
  selected: SelectedAmounts,
) {
  const { limit, premium, retention, limitBand, premiumBand, retentionBand } = columns;
  const [xLimit, xPremium, xRetention] = [
    centsOf(selected.limit),
    centsOf(selected.premium),
    centsOf(selected.retention),
  ];
  const [limitCounts, premiumCounts, retentionCounts] = [
    new Int32Array(NO_BAND + 1),
    new Int32Array(NO_BAND + 1),
    new Int32Array(NO_BAND + 1),
  ];
  let [limitBelow, limitEqual, premiumBelow, premiumEqual, retentionBelow, retentionEqual] = [0, 0, 0, 0, 0, 0];
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const l = limit[i]!;
    const p = premium[i]!;
    const t = retention[i]!;
    limitCounts[limitBand[i]!]!++;
    premiumCounts[premiumBand[i]!]!++;
    retentionCounts[retentionBand[i]!]!++;
    limitBelow += +(l < xLimit);
    limitEqual += +(l === xLimit);
    premiumBelow += +(p < xPremium);
    premiumEqual += +(p === xPremium);
    retentionBelow += +(t < xRetention);
    retentionEqual += +(t === xRetention);
  }
  const statistics = (counts: Int32Array, bands: number, below: number, equal: number): AmountStatistics => ({
    bandCounts: Array.from(counts.subarray(0, bands)),
    rank: { below, equal, total: count - counts[NO_BAND]! },
  });
  return {
    limit: statistics(limitCounts, LIMIT_BANDS.labels.length, limitBelow, limitEqual),
    premium: statistics(premiumCounts, PREMIUM_BANDS.labels.length, premiumBelow, premiumEqual),
    retention: statistics(retentionCounts, RETENTION_BANDS.labels.length, retentionBelow, retentionEqual),
  };
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
  const { rpm } = columns;
  const bits = scratchBits(coverage.end - coverage.start);
  const x = centsOf(clientRpm);
  const exactX = BigInt(clientRpm.times(100).toFixed(0));
  let n = 0;
  let below = 0;
  let equal = 0;
  let large = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const value = rpm[i]!;
    if (value !== value) continue;
    markRank(bits, i - coverage.start);
    n++;
    if (value > Number.MAX_SAFE_INTEGER) {
      large++;
      const exact = largeRpms.get(i)!;
      if (exact < exactX) below++;
      else if (exact === exactX) equal++;
    } else {
      // Counted without branches, as in assessmentFigures.
      below += +(value < x);
      equal += +(value === x);
    }
  }
  const wanted = [...QUARTILES.flatMap((p) => neighbours(n, p)), n - 1];
  const valueAt =
    large === 0
      ? orderStatistics({ column: rpm, rows, count }, bits, coverage, columns.rowByRpmRank, n, wanted)
      : // Only the walk compares RPMs past 2^53 - 1 exactly (by their exact order, from the build).
        walkedStatistics(bits, coverage, columns.rowByRpmRank, n, wanted, (row) =>
          largeRpms.has(row) ? new Decimal(largeRpms.get(row)!.toString()) : new Decimal(rpm[row]!),
        );
  const [firstQuartile, median, fourthQuartile] = QUARTILES.map((p) =>
    roundHalfAwayFromZero(quantile(n, p, valueAt).div(100), 2),
  ) as [Decimal, Decimal, Decimal];
  const maxRpm = n === 0 ? new Decimal(0) : valueAt(n - 1).div(100);
  return { firstQuartile, median, fourthQuartile, maxRpm, rank: { below, equal, total: n } };
}

/** The median limit of the rows, rounded to whole dollars (SEMANTICS.md section 9). */
export function medianLimitOfRows(
  columns: ProgramColumns,
  coverage: RowRange,
  rows: Uint32Array,
  count: number,
): Decimal {
  const { limit } = columns;
  const bits = scratchBits(coverage.end - coverage.start);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    if (limit[i]! === limit[i]!) {
      markRank(bits, i - coverage.start);
      n++;
    }
  }
  const valueAt = orderStatistics(
    { column: limit, rows, count },
    bits,
    coverage,
    columns.rowByLimitRank,
    n,
    neighbours(n, "0.5"),
  );
  return roundHalfAwayFromZero(quantile(n, "0.5", valueAt).div(100), 0);
}

/** The positions (0-based, among n values) of the two values q(p) interpolates. */
export function neighbours(n: number, p: QuantileLevel): number[] {
  const { index } = quantilePosition(n, p);
  return [index, index + 1];
}

/**
 * A walk of the coverage's order costs a few ns per row of the coverage, a quickselect
 * of the peers' values some 25 ns per peer: below one peer in 16 rows, select.
 */
const ROWS_PER_PEER_TO_SELECT = 16;

/**
 * The values (exact integers below 2^53) at the wanted positions among the n matched
 * rows having one, as a lookup: by selection when the peers are few next to their
 * coverage, else by walking the coverage's order (either way O(peer rows)).
 */
function orderStatistics(
  matched: { column: Float64Array; rows: Uint32Array; count: number },
  bits: Uint32Array,
  coverage: RowRange,
  rowByRank: Uint32Array,
  n: number,
  wanted: number[],
): (position: number) => Decimal {
  const { column, rows, count } = matched;
  if (n * ROWS_PER_PEER_TO_SELECT > coverage.end - coverage.start) {
    return walkedStatistics(bits, coverage, rowByRank, n, wanted, (row) => new Decimal(column[row]!));
  }
  const values = scratchValues(n);
  let m = 0;
  for (let r = 0; r < count; r++) {
    const value = column[rows[r]!]!;
    if (value === value) values[m++] = value;
  }
  const selected = selectPositions(values, n, wanted);
  const decimals = new Map([...selected].map(([position, value]) => [position, new Decimal(value)]));
  return (position) => decimals.get(position)!;
}

/** The same, read from the coverage's order of rows (rowByRank), each value by `valueOf`. */
function walkedStatistics(
  bits: Uint32Array,
  coverage: RowRange,
  rowByRank: Uint32Array,
  n: number,
  wanted: number[],
  valueOf: (row: number) => Decimal,
): (position: number) => Decimal {
  const rows = nthMarkedRows(bits, rowByRank, coverage, n, wanted);
  const values = new Map([...rows].map(([position, row]) => [position, valueOf(row)]));
  return (position) => values.get(position)!;
}
