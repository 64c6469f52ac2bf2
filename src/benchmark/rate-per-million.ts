import { Decimal, roundHalfAwayFromZero, toNumber } from "./decimal.js";
import { percentileRank, type RankCounts } from "./percentile-rank.js";
import { chartSentence } from "./text.js";

/** round(premium * 1,000,000 / limit, 2); 0 when the limit is 0 (SEMANTICS.md section 7). */
export function clientRpm(premium: Decimal, limit: Decimal): Decimal {
  if (limit.isZero()) return new Decimal(0);
  return roundHalfAwayFromZero(premium.times(1_000_000).div(limit), 2);
}

export interface RpmFigures {
  firstQuartile: number;
  median: number;
  fourthQuartile: number;
  maxRpm: number;
  clientBar: number;
  nthPercent: number;
  chartDescription: string;
}

/** The RPM answer from the peer statistics and the client's own RPM. */
export function rpmFigures(
  statistics: { firstQuartile: Decimal; median: Decimal; fourthQuartile: Decimal; maxRpm: Decimal; rank: RankCounts },
  clientBar: Decimal,
): RpmFigures {
  const rank = percentileRank(statistics.rank);
  return {
    firstQuartile: toNumber(statistics.firstQuartile),
    median: toNumber(statistics.median),
    fourthQuartile: toNumber(statistics.fourthQuartile),
    maxRpm: toNumber(statistics.maxRpm),
    clientBar: toNumber(clientBar),
    nthPercent: toNumber(roundHalfAwayFromZero(rank, 2)),
    chartDescription: chartSentence("Rate Per Million(RPM)", clientBar, roundHalfAwayFromZero(rank, 0).toNumber()),
  };
}
