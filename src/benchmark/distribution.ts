import type { BandScale } from "./bands.js";
import { roundHalfAwayFromZero, type Decimal } from "./decimal.js";
import { percentileRank, type RankCounts } from "./percentile-rank.js";
import { chartSentence } from "./text.js";

export interface Distribution {
  chartDescription: string;
  bands: { bandSeq: number; bandDescription: string; programCount: bigint }[];
}

/**
 * A distribution of SEMANTICS.md section 6: every band with its count, and the
 * sentence placing the selected company's amount x at round(P) among its peers.
 */
export function distributionOf(
  scale: BandScale,
  bandCounts: readonly number[],
  rank: RankCounts,
  x: Decimal,
): Distribution {
  const percentile = roundHalfAwayFromZero(percentileRank(rank), 0).toNumber();
  return {
    chartDescription: chartSentence(scale.kind, x, percentile),
    bands: scale.labels.map((label, i) => ({
      bandSeq: i + 1,
      bandDescription: label,
      programCount: BigInt(bandCounts[i] ?? 0),
    })),
  };
}
