import { Decimal, roundHalfAwayFromZero, toNumber } from "./decimal.js";

export interface LimitAdequacyFigures {
  clientLimit: number;
  medianLimit: bigint;
  percentCovered: bigint;
  maxLoss: number;
  averageLoss: bigint;
  listOfCases: { lossEventId: bigint; lossAmount: number }[];
}

/**
 * SEMANTICS.md section 9: the share of peer losses the client's limit covers, the
 * largest and the mean loss, and every case, from cases already in order.
 */
export function limitAdequacyFigures(
  clientLimit: Decimal,
  medianLimit: Decimal,
  cases: readonly { lossEventId: bigint; lossAmount: Decimal }[],
): LimitAdequacyFigures {
  const total = cases.length;
  const covered = cases.filter((c) => c.lossAmount.lte(clientLimit)).length;
  const sum = cases.reduce((acc, c) => acc.plus(c.lossAmount), new Decimal(0));
  const ratio = (part: Decimal) => (total === 0 ? new Decimal(0) : roundHalfAwayFromZero(part.div(total), 0));
  return {
    clientLimit: toNumber(clientLimit),
    medianLimit: BigInt(roundHalfAwayFromZero(medianLimit, 0).toFixed(0)),
    percentCovered: BigInt(ratio(new Decimal(covered).times(100)).toFixed(0)),
    maxLoss: total === 0 ? 0 : toNumber(cases[total - 1]!.lossAmount),
    averageLoss: BigInt(ratio(sum).toFixed(0)),
    listOfCases: cases.map((c) => ({ lossEventId: c.lossEventId, lossAmount: toNumber(c.lossAmount) })),
  };
}
