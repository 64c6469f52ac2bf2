/**
 * The band bounds of SEMANTICS.md 4, to mark which band holds the client's amount. Each
 * band covers (lower, upper]; the first also holds 0; the last has no upper bound.
 */
const K = 1_000;
const M = 1_000_000;
const B = 1_000_000_000;

export type DistributionKind = "limit" | "premium" | "retention";

/** The three distributions, in the order the page shows them. */
export const DISTRIBUTION_KINDS: readonly DistributionKind[] = ["limit", "premium", "retention"];

export const UPPER_BOUNDS: Record<DistributionKind, number[]> = {
  limit: [
    100 * K,
    250 * K,
    500 * K,
    750 * K,
    1 * M,
    2 * M,
    5 * M,
    10 * M,
    20 * M,
    30 * M,
    50 * M,
    75 * M,
    100 * M,
    150 * M,
    250 * M,
    500 * M,
    1 * B,
  ],
  premium: [
    1 * K,
    2 * K,
    5 * K,
    10 * K,
    25 * K,
    50 * K,
    75 * K,
    100 * K,
    150 * K,
    250 * K,
    500 * K,
    750 * K,
    1 * M,
    2 * M,
    3 * M,
    5 * M,
    10 * M,
  ],
  retention: [
    1 * K,
    2 * K,
    5 * K,
    10 * K,
    15 * K,
    25 * K,
    50 * K,
    100 * K,
    250 * K,
    500 * K,
    750 * K,
    1 * M,
    2.5 * M,
    5 * M,
    10 * M,
    25 * M,
  ],
};

/** The bandSeq (from 1) holding `amount`: the first band whose upper bound is >= amount. */
export function bandSeqOf(kind: DistributionKind, amount: number): number {
  const bounds = UPPER_BOUNDS[kind];
  const index = bounds.findIndex((upper) => amount <= upper);
  return (index === -1 ? bounds.length : index) + 1;
}
