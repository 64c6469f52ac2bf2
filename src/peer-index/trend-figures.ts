import { Decimal } from "../benchmark/decimal.js";
import { quantile, type QuantileLevel } from "../benchmark/quantile.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import type { PeriodStatistics, QuartileStatistics } from "../benchmark/trend-statistics.js";
import { bucketSelect } from "./bucket-select.js";
import { assessmentContributors, contributorsOfRows, type CompanyBound } from "./contributor-counts.js";
import { dayNumber } from "./day-number.js";
import { neighbours } from "./program-figures.js";
import { scratchBits, scratchValues } from "./scratch.js";
import { selectPositions } from "./select.js";
import type { PeerSnapshot } from "./snapshot.js";

const LEVELS: readonly QuantileLevel[] = ["0.25", "0.5", "0.75"];

/**
 * Which period each day of the span falls in (SEMANTICS.md section 13: start < day <=
 * end), as a table over the span's days: the periods are adjacent, newest first.
 */
export interface PeriodDays {
  /** The day before the span (the oldest period's exclusive start). */
  after: number;
  /** The period of day `after + 1 + d`, for d below its length. */
  periodOf: Uint8Array;
}

export function periodDays(periods: readonly TimeWindow[]): PeriodDays {
  const after = dayNumber(periods[periods.length - 1]!.start);
  const periodOf = new Uint8Array(dayNumber(periods[0]!.end) - after);
  periods.forEach((period, k) => periodOf.fill(k, dayNumber(period.start) - after, dayNumber(period.end) - after));
  return { after, periodOf };
}

/** The peer programs of each period: period k's are rows[starts[k]..starts[k + 1]). */
export interface PeriodRows {
  rows: Uint32Array;
  starts: Int32Array;
}

/**
 * A trend's period figures from each period's peer programs and the peer loss events of
 * the span's years (`lossRows[0..lossCount)`): each period's quartiles are selected from
 * its own rows (bucket-select.ts, O(rows)), its companies counted in a bit set.
 */
export function trendFigures(
  snapshot: PeerSnapshot,
  days: PeriodDays,
  programs: PeriodRows,
  losses: { rows: Uint32Array; count: number },
  contributors: { counting: boolean; bound?: CompanyBound },
): PeriodStatistics[] {
  const { starts } = programs;
  const lossCounts = lossesPerPeriod(snapshot, days, losses);
  return Array.from({ length: starts.length - 1 }, (_, k) => {
    const rows = programs.rows.subarray(starts[k]!, starts[k + 1]!);
    const n = rows.length;
    const { limit, premium, retention } = snapshot.programs;
    const statistics: PeriodStatistics = {
      programCount: n,
      companyCount: distinctCompanies(snapshot, rows),
      amounts: {
        limit: quartilesOf(limit, rows),
        premium: quartilesOf(premium, rows),
        retention: quartilesOf(retention, rows),
        rpm: rpmQuartiles(snapshot, rows),
      },
      lossCount: lossCounts[k]!,
    };
    if (contributors.counting) {
      const {
        programs: all,
        limit: limits,
        premium: premiums,
        retention: retentions,
      } = assessmentContributors(snapshot, rows, n, contributors.bound);
      const rpm = contributorsOfRows(snapshot, rows, n, snapshot.programs.rpm, contributors.bound);
      statistics.contributors = { programs: all, limit: limits, premium: premiums, retention: retentions, rpm };
    }
    return statistics;
  });
}

/** Loss events per period, by their loss day; those of the span's years outside its days count nowhere. */
function lossesPerPeriod(
  snapshot: PeerSnapshot,
  { after, periodOf }: PeriodDays,
  losses: { rows: Uint32Array; count: number },
): Int32Array {
  const counts = new Int32Array(256);
  const { day } = snapshot.losses;
  for (let r = 0; r < losses.count; r++) {
    const d = day[losses.rows[r]!]! - after - 1;
    if (d >= 0 && d < periodOf.length) counts[periodOf[d]!]!++;
  }
  return counts;
}

/**
 * Distinct companies among the rows: each company's bit set as its rows pass, counted
 * the first time. The set is a bit per company (80 KB at Advisen scale), so it stays in
 * cache where a sort of the rows' companies moved every row twice.
 */
function distinctCompanies(snapshot: PeerSnapshot, rows: Uint32Array): number {
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

/**
 * Quartiles of a column of exact integer cents (NaN: no amount) over the rows, in
 * dollars: by buckets (bucket-select.ts), or by selecting among all the values when
 * one is negative.
 */
function quartilesOf(column: Float64Array, rows: Uint32Array): QuartileStatistics {
  const picked = bucketSelect(column, rows, (n) => LEVELS.flatMap((p) => neighbours(n, p)));
  if (picked) return quartiles(picked.n, (position) => new Decimal(picked.values.get(position)!));
  const values = scratchValues(rows.length);
  let n = 0;
  for (let r = 0; r < rows.length; r++) {
    const value = column[rows[r]!]!;
    if (value === value) values[n++] = value;
  }
  const selected = selectPositions(
    values,
    n,
    LEVELS.flatMap((p) => neighbours(n, p)),
  );
  return quartiles(n, (position) => new Decimal(selected.get(position)!));
}

/**
 * RPM quartiles: as quartilesOf, unless an RPM is past 2^53 - 1 cents (a tiny limit),
 * where doubles no longer order exactly: then that period's RPMs are sorted exactly.
 */
function rpmQuartiles(snapshot: PeerSnapshot, rows: Uint32Array): QuartileStatistics {
  const { rpm } = snapshot.programs;
  // Most snapshots hold no such RPM: then no row needs looking at.
  let large = false;
  for (let r = 0; r < rows.length && !large && snapshot.largeRpms.size > 0; r++)
    large = rpm[rows[r]!]! > Number.MAX_SAFE_INTEGER;
  if (!large) return quartilesOf(rpm, rows);
  const exact: bigint[] = [];
  for (const i of rows) {
    const value = rpm[i]!;
    if (value === value) exact.push(snapshot.largeRpms.get(i) ?? BigInt(value));
  }
  exact.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return quartiles(exact.length, (position) => new Decimal(exact[position]!.toString()));
}

/** q(0.25), q(0.5), q(0.75) of n cents values read through `valueAt`, in dollars. */
function quartiles(n: number, valueAt: (position: number) => Decimal): QuartileStatistics {
  const [firstQuartile, median, thirdQuartile] = LEVELS.map((p) => quantile(n, p, valueAt).div(100)) as [
    Decimal,
    Decimal,
    Decimal,
  ];
  return { count: n, firstQuartile, median, thirdQuartile };
}
