import type { Decimal } from "./decimal.js";
import type { LossExperienceSpan, LossExperienceStatistics } from "./loss-experience-statistics.js";
import type { LossYearFilter } from "./loss-years.js";
import type { CoverageReference, PeerGroup } from "./peer-group.js";
import type { WideningCounts } from "./peer-group-suggestions.js";
import type { WideningSpace } from "./peer-group-widening.js";
import type { AssessmentStatistics, LimitAdequacyStatistics, PeerCount, RpmStatistics } from "./peer-statistics.js";
import type { TimeWindow } from "./time-window.js";
import type { TrendStatistics } from "./trend-statistics.js";

/** The selected company's amounts that an assessment places among its peers, in exact cents. */
export type SelectedAmounts = Record<"limit" | "premium" | "retention", Decimal>;

/**
 * What the services ask of the data, whichever engine answers: PostgreSQL (the
 * reference, and the engine when the data outgrows memory) or the in-memory peer
 * index. Every answer carries the coverage reference, so a request is checked and
 * answered from one consistent read.
 */
export interface PeerEngine {
  coverageReference(coverageId: number): Promise<CoverageReference>;
  assessment(
    peers: PeerGroup,
    window: TimeWindow,
    selected: SelectedAmounts,
    options: { withLossCount: boolean },
  ): Promise<AssessmentStatistics>;
  rpm(peers: PeerGroup, window: TimeWindow, clientRpm: Decimal): Promise<RpmStatistics>;
  programCount(peers: PeerGroup, window: TimeWindow): Promise<PeerCount>;
  lossCount(peers: PeerGroup, years: LossYearFilter): Promise<PeerCount>;
  /** The cases of `years`, and the median limit of `window` (the default window). */
  limitAdequacy(peers: PeerGroup, years: LossYearFilter, window: TimeWindow): Promise<LimitAdequacyStatistics>;
  /** The market trend's figures of each period (SEMANTICS.md section 13), in the order given (newest first, adjacent). */
  trend(peers: PeerGroup, periods: readonly TimeWindow[]): Promise<TrendStatistics>;
  /**
   * The loss experience's figures of each year of `span`, oldest first, and of all of
   * them together (SEMANTICS.md section 15); `limits` in exact cents, in the order given.
   */
  lossExperience(
    peers: PeerGroup,
    span: LossExperienceSpan,
    limits: readonly Decimal[],
  ): Promise<LossExperienceStatistics>;
  /** The program and company counts (and contributors, when counted) of the 64 widenings of a group (SEMANTICS.md section 14). */
  widenings(space: WideningSpace): Promise<WideningCounts & { reference: CoverageReference }>;
}
