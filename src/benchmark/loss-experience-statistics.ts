import type { Decimal } from "./decimal.js";
import type { CoverageReference } from "./peer-group.js";
import type { Contributors } from "./peer-statistics.js";

/** The calendar years a loss experience covers (SEMANTICS.md section 15), oldest first, both ends included. */
export interface LossExperienceSpan {
  first: number;
  last: number;
}

/**
 * The paid losses (total amount above 0) of a set of loss events, exact and unrounded:
 * amounts are whole dollars below 2^53 (DATA-FORMAT.md). With count 0, every figure is 0.
 */
export interface PaidLossStatistics {
  count: number;
  /** q(0.25), q(0.5), q(0.75) of the amounts (SEMANTICS.md section 5), in dollars. */
  firstQuartile: Decimal;
  median: Decimal;
  thirdQuartile: Decimal;
  /** The sum of the amounts, for the mean. */
  sum: Decimal;
  /** The largest amount. */
  max: number;
}

/** What an engine computes for one year of a loss experience, or for all of them together, before the rule and the rounding. */
export interface LossExperienceFigures {
  /** Peer programs effective in the year(s). */
  programCount: number;
  /** Peer loss events whose loss year is the year (one of the years), $0 ones included. */
  lossCount: number;
  paid: PaidLossStatistics;
  /** For each limit asked about, in the order given: the paid losses whose amount is greater. */
  exceeding: number[];
  /** Only when the engine counts them: who the programs counted came from. */
  contributors?: Contributors;
}

/** A loss experience's statistics: one entry per year, oldest first, and the total over them. */
export interface LossExperienceStatistics {
  reference: CoverageReference;
  years: LossExperienceFigures[];
  total: LossExperienceFigures;
}
