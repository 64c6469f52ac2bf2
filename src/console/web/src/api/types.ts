// The answers of the v2.0 REST API, as the spec (section 2) and SEMANTICS.md shape them.

export interface Band {
  bandSeq: number;
  bandDescription: string;
  programCount: number;
}

export interface Distribution {
  chartDescription: string;
  bands: Band[];
}

/** GET assessment/getassessmentdata (spec 2.5): the GET form carries both counts. */
export interface Assessment {
  totalProgramCount: number;
  totalLossCount: number;
  limitDistribution: Distribution;
  premiumDistribution: Distribution;
  retentionDistribution: Distribution;
}

/** Spec 2.6; fourthQuartile is the upper quartile (SEMANTICS.md 7). */
export interface Rpm {
  firstQuartile: number;
  median: number;
  fourthQuartile: number;
  maxRpm: number;
  clientBar: number;
  nthPercent: number;
  chartDescription: string;
}

export interface LossCase {
  lossEventID: number;
  lossAmount: number;
}

/** Spec 2.10; listOfCases is ordered by lossAmount, then lossEventID (SEMANTICS.md 9). */
export interface LimitAdequacy {
  clientLimit: number;
  medianLimit: number;
  percentCovered: number;
  maxLoss: number;
  averageLoss: number;
  listOfCases: LossCase[];
}

export interface CompanySummary {
  id: number;
  companyName: string;
  organizationType: string;
}

export interface CompanyPage {
  hasMoreResults: boolean;
  totalCount: number;
  data: CompanySummary[];
}

/** company/{id} always answers the full record (SEMANTICS.md 10). */
export interface Company extends CompanySummary {
  naics2: number | null;
  naics3: number | null;
  revenues: number | null;
  numberOfEmployees: number | null;
  marketCap: number | null;
}

export interface LineOfBusiness {
  lineOfBusinessId: number;
  name: string;
}

export interface Coverage {
  coverageId: number;
  name: string;
  linesOfBusiness: LineOfBusiness[];
}

export interface NaicsSector {
  code: string;
  name: string | null;
  subsectors: { code: string; name: string | null }[];
}

/** reference/getreferencedata: the pickers' choices. */
export interface ReferenceData {
  coverages: Coverage[];
  organizationTypes: { code: string; name: string | null }[];
  naicsSectors: NaicsSector[];
  /** The data set's version (each import moves it on): what a report quotes as its data. */
  datasetVersion: number;
}

/** An answer of the API. */
export interface Answer<T> {
  data: T;
}

/** Quartiles of one amount over a trend period's programs that have it (SEMANTICS.md 13); null without any. */
export interface TrendQuartiles {
  count: number;
  firstQuartile: number | null;
  median: number | null;
  thirdQuartile: number | null;
}

/** One period of trend/getmarkettrend; a withheld period keeps only its dates and loss count. */
export interface TrendPeriod {
  /** Exclusive, YYYY-MM-DD. */
  periodStart: string;
  /** Inclusive, YYYY-MM-DD. */
  periodEnd: string;
  programCount: number | null;
  companyCount: number | null;
  limit: TrendQuartiles | null;
  premium: TrendQuartiles | null;
  retention: TrendQuartiles | null;
  rpm: TrendQuartiles | null;
  lossCount: number;
  limitMedianChangePercent: number | null;
  premiumMedianChangePercent: number | null;
  rpmMedianChangePercent: number | null;
  withheld: { condition: string; threshold: number } | null;
}

/** trend/getmarkettrend: periods newest first. */
export interface MarketTrend {
  periodMonths: number;
  periods: TrendPeriod[];
}

/** A widened group as the POST assessment takes it (SEMANTICS.md 14), ready to apply. */
export interface SuggestedPeerGroup {
  naics: string[];
  coverageId: number;
  lineOfBusinessId: number[];
  exposureType: string;
  exposureRangeLow: number;
  exposureRangeHigh: number;
  organizationType: string[];
  oldestTrailing: number;
  newestTrailing: number;
}

export type WideningMove = "naics" | "exposure" | "lineOfBusiness" | "organizationType" | "window";

export interface PeerGroupSuggestion {
  moves: WideningMove[];
  programCount: number;
  companyCount: number;
  peerGroup: SuggestedPeerGroup;
}

/** peergroup/suggestpeergroups; a refused original has null counts. */
export interface PeerGroupSuggestions {
  original: { programCount: number | null; companyCount: number | null; meets: boolean };
  suggestions: PeerGroupSuggestion[];
}
