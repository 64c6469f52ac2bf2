import type { Decimal } from "./decimal.js";
import type { CoverageReference } from "./peer-group.js";
import type { RankCounts } from "./percentile-rank.js";

/**
 * What an engine computes for each operation: counts, ranks and order statistics of
 * a peer group, before the domain turns them into answers. Both engines (SQL and
 * the peer index) return these shapes, and must return them identical.
 */

/** One amount's figures among the peer programs: counts per band, and where x stands. */
export interface AmountStatistics {
  bandCounts: number[];
  rank: RankCounts;
}

export interface AssessmentStatistics {
  reference: CoverageReference;
  totalProgramCount: number;
  limit: AmountStatistics;
  premium: AmountStatistics;
  retention: AmountStatistics;
  /** Only when asked for: the peer loss events, without a loss-year filter. */
  totalLossCount?: number;
}

export interface RpmStatistics {
  reference: CoverageReference;
  firstQuartile: Decimal;
  median: Decimal;
  fourthQuartile: Decimal;
  maxRpm: Decimal;
  /** Where the client's RPM stands among the peer RPMs. */
  rank: RankCounts;
}

export interface PeerCount {
  reference: CoverageReference;
  count: number;
}

/**
 * The peer loss events in answer order (lossAmount, then id: SEMANTICS.md section 9),
 * as two parallel lists. Ids and amounts are whole numbers up to 2^53 - 1
 * (DATA-FORMAT.md), so plain numbers hold them exactly.
 */
export interface LossCases {
  ids: ArrayLike<number>;
  amounts: ArrayLike<number>;
}

export interface LimitAdequacyStatistics {
  reference: CoverageReference;
  cases: LossCases;
  /** The median limit of the peer programs of the default window, rounded to whole dollars. */
  medianLimit: Decimal;
}
