/** A band table of SEMANTICS.md section 4: upper bounds in dollars and the spec's labels. */
export interface BandTable {
  upperBounds: readonly bigint[];
  labels: readonly string[];
}

const K = 1_000n;
const M = 1_000_000n;
const B = 1_000_000_000n;

export const LIMIT_BANDS: BandTable = {
  upperBounds: [
    100n * K,
    250n * K,
    500n * K,
    750n * K,
    M,
    2n * M,
    5n * M,
    10n * M,
    20n * M,
    30n * M,
    50n * M,
    75n * M,
    100n * M,
    150n * M,
    250n * M,
    500n * M,
    B,
  ],
  labels: [
    "0-100K",
    "100K-250K",
    "250K-500K",
    "500K-750K",
    "750K-1M",
    "1M-2M",
    "2M-5M",
    "5M-10M",
    "10M-20M",
    "20M-30M",
    "30M-50M",
    "50M-75M",
    "75M-100M",
    "100M-150M",
    "150M-250M",
    "250M-500M",
    "500M-1B",
    "> 1B",
  ],
};

export const PREMIUM_BANDS: BandTable = {
  upperBounds: [
    K,
    2n * K,
    5n * K,
    10n * K,
    25n * K,
    50n * K,
    75n * K,
    100n * K,
    150n * K,
    250n * K,
    500n * K,
    750n * K,
    M,
    2n * M,
    3n * M,
    5n * M,
    10n * M,
  ],
  labels: [
    "0-1K",
    "1K-2K",
    "2K-5K",
    "5K-10K",
    "10K-25K",
    "25K-50K",
    "50K-75K",
    "75K-100K",
    "100K-150K",
    "150K-250K",
    "250K-500K",
    "500K-750K",
    "750K-1M",
    "1M-2M",
    "2M-3M",
    "3M-5M",
    "5M-10M",
    "> 10M",
  ],
};

export const RETENTION_BANDS: BandTable = {
  upperBounds: [
    K,
    2n * K,
    5n * K,
    10n * K,
    15n * K,
    25n * K,
    50n * K,
    100n * K,
    250n * K,
    500n * K,
    750n * K,
    M,
    2_500n * K,
    5n * M,
    10n * M,
    25n * M,
  ],
  labels: [
    "0-1K",
    "1K-2K",
    "2K-5K",
    "5K-10K",
    "10K-15K",
    "15K-25K",
    "25K-50K",
    "50K-100K",
    "100K-250K",
    "250K-500K",
    "500K-750K",
    "750K-1M",
    "1M-2.5M",
    "2.5M-5M",
    "5M-10M",
    "10M-25M",
    "> 25M",
  ],
};

/**
 * The 1-based band of an amount in cents: bands are (lower, upper], the first also
 * holds 0, the last has no upper bound. So it is 1 + the number of bounds below it.
 */
export function bandSeqOf(table: BandTable, cents: bigint): number {
  let seq = 1;
  for (const bound of table.upperBounds) if (cents > bound * 100n) seq++;
  return seq;
}
