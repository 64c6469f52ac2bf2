import { Decimal, roundHalfAwayFromZero, sumOf, toNumber } from "./decimal.js";
import type { LossCases } from "./peer-statistics.js";

export interface LimitAdequacyFigures {
  clientLimit: number;
  medianLimit: bigint;
  percentCovered: bigint;
  maxLoss: number;
  averageLoss: bigint;
}

/**
 * SEMANTICS.md section 9: the share of peer losses the client's limit covers, the
 * largest and the mean loss, from cases already in order (listed as they are). Loss
 * amounts are whole dollars below 2^53, so they are compared and summed as plain
 * numbers, exactly (see sumOf).
 */
export function limitAdequacyFigures(
  clientLimit: Decimal,
  medianLimit: Decimal,
  cases: LossCases,
): LimitAdequacyFigures {
  const total = cases.amounts.length;
  // A whole-dollar amount is <= clientLimit exactly when it is <= floor(clientLimit);
  // a bound at or above 2^53 covers every amount.
  const bound = Decimal.min(clientLimit.floor(), 2 ** 53).toNumber();
  let covered = 0;
  for (let i = 0; i < total; i++) if (cases.amounts[i]! <= bound) covered++;
  const ratio = (part: Decimal) => (total === 0 ? new Decimal(0) : roundHalfAwayFromZero(part.div(total), 0));
  return {
    clientLimit: toNumber(clientLimit),
    medianLimit: BigInt(roundHalfAwayFromZero(medianLimit, 0).toFixed(0)),
    percentCovered: BigInt(ratio(new Decimal(covered).times(100)).toFixed(0)),
    maxLoss: total === 0 ? 0 : cases.amounts[total - 1]!,
    averageLoss: BigInt(ratio(sumOf(cases.amounts)).toFixed(0)),
  };
}
