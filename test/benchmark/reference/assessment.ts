import { bandSeqOf, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS, type BandTable } from "./bands.js";
import { roundRatio, toCents } from "./exact.js";
import type {
  CsvRow,
  ReferenceAssessment,
  ReferenceDataset,
  ReferenceDistribution,
  ReferenceDistributions,
  ReferenceRequest,
} from "./model-types.js";
import { peerLosses, peerPrograms } from "./peer-rows.js";
import { percentileRank } from "./statistics.js";
import { money, ordinal } from "./text.js";

type Kind = "limit" | "premium" | "retention";

/** One distribution (SEMANTICS.md section 6) over the programs given. */
export function distribution(
  programs: readonly CsvRow[],
  kind: Kind,
  table: BandTable,
  amount: string | null | undefined,
): ReferenceDistribution {
  const values: bigint[] = [];
  for (const program of programs) {
    const text = program[kind] ?? "";
    if (text !== "") values.push(toCents(text));
  }
  const counts = table.labels.map(() => 0);
  for (const value of values) counts[bandSeqOf(table, value) - 1]! += 1;
  const x = amount === undefined || amount === null ? 0n : toCents(amount);
  const n = roundRatio(percentileRank(values, x));
  return {
    chartDescription: `The selected company's ${kind} of ${money(x)} puts it in the ${ordinal(n)} percentile in relation to its peers.`,
    bands: table.labels.map((label, i) => ({
      bandSeq: i + 1,
      bandDescription: label,
      programCount: counts[i] as number,
    })),
  };
}

/** The three distributions over the peer-group programs in the request's window. */
export function postAssessment(
  dataset: ReferenceDataset,
  request: ReferenceRequest,
  asOf: string,
): ReferenceDistributions {
  const programs = peerPrograms(dataset, request, asOf, "request");
  return {
    limitDistribution: distribution(programs, "limit", LIMIT_BANDS, request.limit),
    premiumDistribution: distribution(programs, "premium", PREMIUM_BANDS, request.premium),
    retentionDistribution: distribution(programs, "retention", RETENTION_BANDS, request.retention),
  };
}

/** GET assessment: the counts (no loss-year filter on losses) and the three distributions. */
export function getAssessment(dataset: ReferenceDataset, request: ReferenceRequest, asOf: string): ReferenceAssessment {
  return {
    totalProgramCount: peerPrograms(dataset, request, asOf, "request").length,
    totalLossCount: peerLosses(dataset, request, "none").length,
    ...postAssessment(dataset, request, asOf),
  };
}
