import type { Decimal } from "../benchmark/decimal.js";
import { quantileOfCents } from "../benchmark/quantile.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import type { PeriodStatistics, QuartileStatistics, TrendAmount } from "../benchmark/trend-statistics.js";
import { dayNumber } from "./day-number.js";
import { QUARTILE_LEVELS, type PeriodPrograms } from "./period-programs.js";
import type { PeerSnapshot } from "./snapshot.js";
import type { SelectedValues } from "./tier-select.js";

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

/**
 * A trend's period figures from each period's programs (period-programs.ts: counts and
 * the values its quartiles read, from whichever thread scanned them) and the peer loss
 * events of the span's years (`losses.rows[0..losses.count)`): the quartiles are read
 * here, in exact decimals, and the loss events counted by their loss day.
 */
export function trendFigures(
  snapshot: PeerSnapshot,
  days: PeriodDays,
  programs: readonly PeriodPrograms[],
  losses: { rows: Uint32Array; count: number },
  contributors?: readonly NonNullable<PeriodStatistics["contributors"]>[],
): PeriodStatistics[] {
  const lossCounts = lossesPerPeriod(snapshot, days, losses);
  return programs.map(({ programCount, companyCount, selected }, k) => {
    const quartilesOf = (amount: TrendAmount) => quartiles(selected[amount]);
    const statistics: PeriodStatistics = {
      programCount,
      companyCount,
      amounts: {
        limit: quartilesOf("limit"),
        premium: quartilesOf("premium"),
        retention: quartilesOf("retention"),
        rpm: quartilesOf("rpm"),
      },
      lossCount: lossCounts[k]!,
    };
    if (contributors) statistics.contributors = contributors[k];
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

/** q(0.25), q(0.5), q(0.75) of an amount's selected values, in dollars. */
function quartiles({ n, valueAt }: SelectedValues): QuartileStatistics {
  const [firstQuartile, median, thirdQuartile] = QUARTILE_LEVELS.map((p) =>
    quantileOfCents(n, p, (position) => valueAt.get(position)!),
  ) as [Decimal, Decimal, Decimal];
  return { count: n, firstQuartile, median, thirdQuartile };
}
