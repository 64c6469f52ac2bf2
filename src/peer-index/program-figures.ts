import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { Decimal, roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { SelectedAmounts } from "../benchmark/peer-engine.js";
import type { AmountStatistics } from "../benchmark/peer-statistics.js";
import type { RankCounts } from "../benchmark/percentile-rank.js";
import { quantile, quantilePosition, type QuantileLevel } from "../benchmark/quantile.js";
import { comparable, NO_BAND, type ProgramColumns } from "./snapshot.js";
import { amountTierCounts, exactCents, selectCountedRows } from "./tier-select.js";

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
 * section 7), in one pass that also counts the rows' RPM tiers, then the gathering
 * pass of tier-select.ts. An RPM above 2^53 - 1 cents (a tiny limit) is compared
 * exactly, in BigInt.
 */
export function rpmFiguresOfRows(
  columns: ProgramColumns,
  largeRpms: ReadonlyMap<number, bigint>,
  rows: Uint32Array,
  count: number,
  clientRpm: Decimal,
): RpmFiguresOfRows {
  const { rpm, rpmTier } = columns;
  const tiers = amountTierCounts();
  const x = centsOf(clientRpm);
  const exactX = BigInt(clientRpm.times(100).toFixed(0));
  let below = 0;
  let equal = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    tiers[rpmTier[i]!]!++;
    const value = rpm[i]!;
    if (value > Number.MAX_SAFE_INTEGER) {
      const exact = largeRpms.get(i)!;
      if (exact < exactX) below++;
      else if (exact === exactX) equal++;
    } else {
      // Counted without branches, as in assessmentFigures; NaN (no RPM) is neither.
      below += +(value < x);
      equal += +(value === x);
    }
  }
  const exact = exactCents(columns, largeRpms);
  const { n, rowAt } = selectCountedRows(
    columns,
    "rpm",
    rows,
    count,
    tiers,
    (n) => [...QUARTILES.flatMap((p) => neighbours(n, p)), n - 1],
    exact,
  );
  const valueAt = (position: number) => new Decimal(exact("rpm", rowAt.get(position)!).toString());
  const [firstQuartile, median, fourthQuartile] = QUARTILES.map((p) =>
    roundHalfAwayFromZero(quantile(n, p, valueAt).div(100), 2),
  ) as [Decimal, Decimal, Decimal];
  const maxRpm = n === 0 ? new Decimal(0) : valueAt(n - 1).div(100);
  return { firstQuartile, median, fourthQuartile, maxRpm, rank: { below, equal, total: n } };
}

/** The median limit of the rows, rounded to whole dollars (SEMANTICS.md section 9). */
export function medianLimitOfRows(columns: ProgramColumns, rows: Uint32Array, count: number): Decimal {
  const { limit, limitTier } = columns;
  const tiers = amountTierCounts();
  for (let r = 0; r < count; r++) tiers[limitTier[rows[r]!]!]!++;
  const { n, rowAt } = selectCountedRows(
    columns,
    "limit",
    rows,
    count,
    tiers,
    (n) => neighbours(n, "0.5"),
    (_, row) => limit[row]!,
  );
  return roundHalfAwayFromZero(quantile(n, "0.5", (position) => new Decimal(limit[rowAt.get(position)!]!)).div(100), 0);
}

/** The positions (0-based, among n values) of the two values q(p) interpolates. */
export function neighbours(n: number, p: QuantileLevel): number[] {
  const { index } = quantilePosition(n, p);
  return [index, index + 1];
}
