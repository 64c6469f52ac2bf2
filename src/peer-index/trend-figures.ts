import { Decimal } from "../benchmark/decimal.js";
import { quantile, type QuantileLevel } from "../benchmark/quantile.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import type { PeriodStatistics, QuartileStatistics } from "../benchmark/trend-statistics.js";
import { assessmentContributors, contributorsOfRows, type CompanyBound } from "./contributor-counts.js";
import { dayNumber } from "./day-number.js";
import { neighbours } from "./program-figures.js";
import { scratchBits } from "./scratch.js";
import { exactCents, selectCountedAmounts, type Amount, type TierCounts } from "./tier-select.js";
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

/** The peer programs of each period: period k's are rows[starts[k]..starts[k + 1]), their amounts' tiers counted in tiers[k]. */
export interface PeriodRows {
  rows: Uint32Array;
  starts: Int32Array;
  tiers: TierCounts[];
}

/**
 * A trend's period figures from each period's peer programs and the peer loss events of
 * the span's years (`losses.rows[0..losses.count)`): each period's quartiles are selected from
 * its own rows (tier-select.ts, O(rows)), its companies counted in a bit set.
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
    const statistics: PeriodStatistics = {
      programCount: n,
      companyCount: distinctCompanies(snapshot, rows),
      amounts: amountQuartiles(snapshot, rows, programs.tiers[k]!),
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

/** The quartiles of the four amounts over the rows, in dollars, selected together (tier-select.ts). */
function amountQuartiles(snapshot: PeerSnapshot, rows: Uint32Array, tiers: TierCounts): PeriodStatistics["amounts"] {
  const exact = exactCents(snapshot.programs, snapshot.largeRpms);
  const selected = selectCountedAmounts(
    snapshot.programs,
    rows,
    tiers,
    (n) => LEVELS.flatMap((p) => neighbours(n, p)),
    exact,
  );
  const quartilesOf = (amount: Amount) => {
    const { n, rowAt } = selected[amount];
    return quartiles(n, (position) => new Decimal(exact(amount, rowAt.get(position)!).toString()));
  };
  return {
    limit: quartilesOf("limit"),
    premium: quartilesOf("premium"),
    retention: quartilesOf("retention"),
    rpm: quartilesOf("rpm"),
  };
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
