import { Decimal } from "./decimal.js";

/** Where a value stands among its peers: how many are below it and how many equal it. */
export interface RankCounts {
  below: number;
  equal: number;
  total: number;
}

/**
 * Percentile rank with ties counted half (SEMANTICS.md section 5):
 * P = 100 * (L + E/2) / N, exact; 0 when there are no peers.
 */
export function percentileRank({ below, equal, total }: RankCounts): Decimal {
  if (total === 0) return new Decimal(0);
  return new Decimal(below).plus(new Decimal(equal).div(2)).times(100).div(total);
}
