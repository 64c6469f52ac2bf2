/** One CSV record keyed by header, every field a string as in the file ("" = null). */
export type CsvRow = Readonly<Record<string, string>>;

/** The rows of a data set folder (DATA-FORMAT.md), as read from its CSV files. */
export interface ReferenceDataset {
  companies: readonly CsvRow[];
  programs: readonly CsvRow[];
  losses: readonly CsvRow[];
}

export type ExposureType = "Revenues" | "Employees" | "Market Cap";

/**
 * A peer-group request, already normalized (SEMANTICS.md sections 1 and 11): lists
 * trimmed, amounts and bounds as decimal text with at most 2 decimals, and `null`
 * (or absence) for every input that was not given.
 */
export interface ReferenceRequest {
  naics: string[];
  coverageId: number;
  /** Empty, or holding 0: every LOB. */
  lineOfBusinessId: number[];
  exposureType: ExposureType;
  exposureRangeLow: string;
  exposureRangeHigh: string;
  /** Empty, or holding `All` (any case): every organization type. */
  organizationType: string[];
  premium?: string | null;
  limit?: string | null;
  retention?: string | null;
  clientLimit?: string | null;
  oldestTrailing?: number | null;
  newestTrailing?: number | null;
  lossYear?: number | null;
  oldestLossYear?: number | null;
  newestLossYear?: number | null;
  /** The market trend's shape (SEMANTICS.md section 13); null or absent: the default. */
  periodMonths?: number | null;
  periods?: number | null;
  /** The loss experience's years (SEMANTICS.md section 15); null or absent: 5. */
  years?: number | null;
  /** The loss experience's limits, decimal text as read (at most 2 decimals, each above 0); null or absent: none. */
  limits?: string[] | null;
  /** Peer-group suggestions' bounds (SEMANTICS.md section 14); null or absent: the default. */
  minPrograms?: number | null;
  maxSuggestions?: number | null;
}

export interface ReferenceBand {
  bandSeq: number;
  bandDescription: string;
  programCount: number;
}

export interface ReferenceDistribution {
  chartDescription: string;
  bands: ReferenceBand[];
}

export interface ReferenceDistributions {
  limitDistribution: ReferenceDistribution;
  premiumDistribution: ReferenceDistribution;
  retentionDistribution: ReferenceDistribution;
}

export interface ReferenceAssessment extends ReferenceDistributions {
  totalProgramCount: number;
  totalLossCount: number;
}

export interface ReferenceRpm {
  firstQuartile: number;
  median: number;
  fourthQuartile: number;
  maxRpm: number;
  clientBar: number;
  nthPercent: number;
  chartDescription: string;
}

export interface ReferenceLimitAdequacy {
  clientLimit: number;
  medianLimit: number;
  percentCovered: number;
  maxLoss: number;
  averageLoss: number;
  listOfCases: { lossEventID: number; lossAmount: number }[];
}
