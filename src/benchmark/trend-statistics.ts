import type { Decimal } from "./decimal.js";
import type { CoverageReference } from "./peer-group.js";
import type { Contributors } from "./peer-statistics.js";

/** The amounts a market trend gives quartiles of (SEMANTICS.md section 13). */
export const TREND_AMOUNTS = ["limit", "premium", "retention", "rpm"] as const;
export type TrendAmount = (typeof TREND_AMOUNTS)[number];

/**
 * q(0.25), q(0.5), q(0.75) (SEMANTICS.md section 5) of one amount over a period's
 * programs having it, in dollars, exact and unrounded: the change percentages read
 * the unrounded medians. All 0 when count is 0.
 */
export interface QuartileStatistics {
  count: number;
  firstQuartile: Decimal;
  median: Decimal;
  thirdQuartile: Decimal;
}

/** What an engine computes for one period of a trend, before the rule and the rounding. */
export interface PeriodStatistics {
  programCount: number;
  /** Distinct companies among the period's programs: always an exact count. */
  companyCount: number;
  amounts: Record<TrendAmount, QuartileStatistics>;
  /** Peer loss events whose loss date is in the period (no loss-year filter). */
  lossCount: number;
  /** Only when the engine counts them: who each of the period's sets rests on. */
  contributors?: Record<"programs" | TrendAmount, Contributors>;
}

/** A trend's statistics, one entry per period in the order asked (newest first). */
export interface TrendStatistics {
  reference: CoverageReference;
  periods: PeriodStatistics[];
}
