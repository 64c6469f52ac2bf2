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
  withheld: Withheld | null;
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

/** A disclosure condition a year's programs break (SEMANTICS.md 12), never the shares found. */
export interface Withheld {
  condition: string;
  threshold: number;
}

/** The paid losses' amounts (SEMANTICS.md 15): quartiles and mean rounded to cents, the largest in dollars. */
export interface LossSeverity {
  firstQuartile: number;
  median: number;
  thirdQuartile: number;
  average: number;
  max: number;
}

/** How many paid losses passed one limit asked about; percent is null without paid losses. */
export interface LimitExceeded {
  limit: number;
  count: number;
  percent: number | null;
}

/**
 * The figures of a year, or of all the years, of lossdetails/getlossexperience. A withheld
 * one has null programs and frequency; its loss figures stay, loss events being public.
 */
export interface LossExperienceFigures {
  programCount: number | null;
  /** Every loss event, $0 ones included. */
  lossCount: number;
  /** Those with a total amount above $0. */
  paidLossCount: number;
  /** 100 × lossCount / programCount, rounded to 2 decimals; null without programs or when withheld. */
  frequencyPer100: number | null;
  /** Null without a paid loss. */
  severity: LossSeverity | null;
  /** One entry per limit asked about, in the order given. */
  exceeding: LimitExceeded[];
  withheld: Withheld | null;
}

export interface LossExperienceYear extends LossExperienceFigures {
  year: number;
}

export interface LossExperienceTotal extends LossExperienceFigures {
  fromYear: number;
  toYear: number;
}

/** lossdetails/getlossexperience: years oldest first, and their total. */
export interface LossExperience {
  years: LossExperienceYear[];
  total: LossExperienceTotal;
}
