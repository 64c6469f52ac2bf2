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
  /** Only when the engine counts them: who the program count and each distribution rest on. */
  contributors?: AssessmentContributors;
}

/** Who the program count and each distribution of an assessment rest on. */
export type AssessmentContributors = Record<"programs" | "limit" | "premium" | "retention", Contributors>;

/**
 * Who the programs behind one figure came from, as the disclosure rule
 * (src/benchmark/disclosure-rule.ts) reads it: the programs the figure is computed from
 * (for a distribution, those with its amount; for RPM, those with an RPM; for the
 * median limit, those with a limit; for the program count, all of them).
 */
export interface Contributors {
  programs: number;
  /** Distinct companies among them. */
  companies: number;
  /** Programs of the two companies with the most (of the one, when there is one). */
  topTwoCompanyPrograms: number;
  /**
   * Programs that came from partners: every source but `curated`, which is public. A
   * program without a source counts as a partner's, all such programs as one source:
   * the rule cannot tell them apart, so it assumes the worst.
   */
  partnerPrograms: number;
  /** Programs of the partner source with the most. */
  largestSourcePrograms: number;
  /**
   * Set when `companies` is a lower bound and `topTwoCompanyPrograms` an upper bound,
   * not counts: the peer index leaves a large group's companies uncounted when such
   * bounds already meet the rule's company conditions (companyConditionsHold).
   */
  bounds?: true;
}

export interface RpmStatistics {
  reference: CoverageReference;
  firstQuartile: Decimal;
  median: Decimal;
  fourthQuartile: Decimal;
  maxRpm: Decimal;
  /** Where the client's RPM stands among the peer RPMs. */
  rank: RankCounts;
  /** Only when the engine counts them: who the RPMs rest on. */
  contributors?: Contributors;
}

export interface PeerCount {
  reference: CoverageReference;
  count: number;
  /** Only when the engine counts them, and for programs only (loss events are public records). */
  contributors?: Contributors;
}

/**
 * The peer loss events in answer order (lossAmount, then id: SEMANTICS.md section 9),
 * as two parallel lists. Ids and amounts are whole numbers up to 2^53 - 1
 * (DATA-FORMAT.md), so plain numbers hold them exactly.
 */
export interface LossCases {
  ids: ArrayLike<number>;
  amounts: ArrayLike<number>;
  /** The same cases already in an answer's bytes, from an engine that keeps them so. */
  rendered?: RenderedCases;
}

/**
 * A list of cases in the two forms an answer writes, each made when asked for (an
 * answer needs one), as pieces to write one after another: JSON items joined by commas
 * (no brackets), and the protobuf entries of the answer's list field. A piece starts
 * and ends at a case's edge. What has to be copied is copied into pieces from
 * `newPiece`, so that the writer, which knows when the bytes are written, may lend them.
 */
export interface RenderedCases {
  json(newPiece: NewPiece): Uint8Array[];
  protobuf(newPiece: NewPiece): Uint8Array[];
}

/** Room to copy into: a piece of bytes of any size (not cleared). */
export type NewPiece = () => Uint8Array<ArrayBuffer>;

export interface LimitAdequacyStatistics {
  reference: CoverageReference;
  cases: LossCases;
  /** The median limit of the peer programs of the default window, rounded to whole dollars. */
  medianLimit: Decimal;
  /** Only when the engine counts them: who the median limit rests on. */
  contributors?: Contributors;
}
