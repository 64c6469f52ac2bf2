import type { LimitAdequacy } from "../api/types.js";

/**
 * Limit adequacy as a broker reads it (issue 50). The API's figures count every case,
 * $0 ones too (SEMANTICS.md 9): a claim closed without payment is "within" any limit, so
 * 10 such cases of 35 lift "% covered" from 60% to 71%, and pull the average loss down.
 * A broker means the paid losses. These are the same figures over the cases above $0,
 * rounded as the API rounds its own (half away from zero, whole numbers).
 */
export interface PaidLosses {
  /** Cases closed at $0. */
  zero: number;
  /** Cases above $0. */
  paid: number;
  /** Paid losses at or below the client's limit. */
  paidWithin: number;
  /** 100 × paidWithin / paid, rounded; 0 when no loss was paid. */
  percentPaidWithin: number;
  /** The mean paid loss, rounded to whole dollars; 0 when no loss was paid. */
  averagePaid: number;
}

export function paidLosses({ listOfCases, clientLimit }: LimitAdequacy): PaidLosses {
  let zero = 0;
  let paidWithin = 0;
  let sum = 0n;
  for (const { lossAmount } of listOfCases) {
    if (lossAmount === 0) zero++;
    else {
      if (lossAmount <= clientLimit) paidWithin++;
      sum += BigInt(lossAmount);
    }
  }
  const paid = listOfCases.length - zero;
  return {
    zero,
    paid,
    paidWithin,
    percentPaidWithin: paid === 0 ? 0 : roundedRatio(BigInt(100 * paidWithin), BigInt(paid)),
    averagePaid: paid === 0 ? 0 : roundedRatio(sum, BigInt(paid)),
  };
}

/** part / whole for whole numbers >= 0, rounded half away from zero. */
const roundedRatio = (part: bigint, whole: bigint) => Number((2n * part + whole) / (2n * whole));
