import { Decimal, roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { SelectedAmounts } from "../benchmark/peer-engine.js";
import type { AmountStatistics } from "../benchmark/peer-statistics.js";
import { quantile, quantilePosition, type QuantileLevel } from "../benchmark/quantile.js";
import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import type { RankCounts } from "../benchmark/percentile-rank.js";
import { selectRanks } from "./order-statistics.js";
import { scratchValues } from "./scratch.js";
import type { ProgramColumns } from "./snapshot.js";

/**
 * Figures over the matched program rows (`rows[0..count)`), each one pass: the
 * distributions and ranks of an assessment, the RPM statistics, the median limit.
 * Amounts are integer cents; the selected amounts arrive as exact cents, clamped to
 * 2^53, beyond every stored value (an index coverage holds none above 2^53 - 1).
 */

const CEILING = 2 ** 53;

/** A request amount as comparable cents. */
export function centsOf(amount: Decimal): number {
  return Decimal.min(amount.times(100), CEILING).toNumber();
}

/** Band counts and rank counts of one amount (SEMANTICS.md sections 4-6). */
function amountStatistics(values: Float64Array, bands: Uint8Array, bandCount: number, rows: Uint32Array, count: number, x: number): AmountStatistics {
  const bandCounts = new Array<number>(bandCount).fill(0);
  let below = 0;
  let equal = 0;
  let total = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const value = values[i]!;
    if (value !== value) continue; // NaN: no amount of this kind
    bandCounts[bands[i]!]!++;
    total++;
    if (value < x) below++;
    else if (value === x) equal++;
  }
  return { bandCounts, rank: { below, equal, total } };
}

export function assessmentFigures(columns: ProgramColumns, rows: Uint32Array, count: number, selected: SelectedAmounts) {
  return {
    limit: amountStatistics(columns.limit, columns.limitBand, LIMIT_BANDS.labels.length, rows, count, centsOf(selected.limit)),
    premium: amountStatistics(columns.premium, columns.premiumBand, PREMIUM_BANDS.labels.length, rows, count, centsOf(selected.premium)),
    retention: amountStatistics(columns.retention, columns.retentionBand, RETENTION_BANDS.labels.length, rows, count, centsOf(selected.retention)),
  };
}

export interface RpmFiguresOfRows {
  firstQuartile: Decimal;
  median: Decimal;
  fourthQuartile: Decimal;
  maxRpm: Decimal;
  rank: RankCounts;
}

/**
 * RPM quartiles (rounded to cents), the largest RPM, and the client's rank (SEMANTICS.md
 * section 7). RPMs above 2^53 - 1 cents (rare: a tiny limit) are all above every other,
 * so they sort after them: they are ranked apart, exactly, in BigInt.
 */
export function rpmFiguresOfRows(columns: ProgramColumns, largeRpms: ReadonlyMap<number, bigint>, rows: Uint32Array, count: number, clientRpm: Decimal): RpmFiguresOfRows {
  const rpm = columns.rpm;
  const values = scratchValues(count);
  const x = centsOf(clientRpm);
  const large: bigint[] = [];
  let n = 0;
  let below = 0;
  let equal = 0;
  let max = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const value = rpm[i]!;
    if (value !== value) continue;
    if (value > Number.MAX_SAFE_INTEGER) {
      large.push(largeRpms.get(i)!);
      continue;
    }
    values[n++] = value;
    if (value > max) max = value;
    if (value < x) below++;
    else if (value === x) equal++;
  }
  large.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const exactX = BigInt(clientRpm.times(100).toFixed(0));
  for (const value of large) {
    if (value < exactX) below++;
    else if (value === exactX) equal++;
  }
  const total = n + large.length;
  const levels: QuantileLevel[] = ["0.25", "0.5", "0.75"];
  selectRanks(values, n, levels.flatMap((p) => neighbourRanks(total, p)));
  const valueAt = (k: number) => new Decimal(k < n ? values[k]! : large[k - n]!.toString());
  const [firstQuartile, median, fourthQuartile] = levels.map((p) => roundHalfAwayFromZero(quantile(total, p, valueAt).div(100), 2)) as [Decimal, Decimal, Decimal];
  const maxRpm = large.length > 0 ? valueAt(total - 1) : new Decimal(max);
  return { firstQuartile, median, fourthQuartile, maxRpm: maxRpm.div(100), rank: { below, equal, total } };
}

/** The median limit of the rows, rounded to whole dollars (SEMANTICS.md section 9). */
export function medianLimitOfRows(columns: ProgramColumns, rows: Uint32Array, count: number): Decimal {
  const limit = columns.limit;
  const values = scratchValues(count);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const value = limit[rows[r]!]!;
    if (value === value) values[n++] = value;
  }
  selectRanks(values, n, neighbourRanks(n, "0.5"));
  return roundHalfAwayFromZero(quantile(n, "0.5", (k) => new Decimal(values[k]!)).div(100), 0);
}

/** The ranks of the two values q(p) interpolates. */
function neighbourRanks(n: number, p: QuantileLevel): number[] {
  const { index } = quantilePosition(n, p);
  return [index, index + 1];
}
