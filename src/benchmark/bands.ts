import { Decimal } from "./decimal.js";

/** One distribution's bands (SEMANTICS.md section 4): each covers (lower, upper]. */
export interface BandScale {
  readonly kind: "limit" | "premium" | "retention";
  /** Upper bounds in bandSeq order; the last band has none and covers everything above. */
  readonly upperBounds: readonly Decimal[];
  /** The same bounds in cents, exact as numbers. */
  readonly upperBoundCents: readonly number[];
  /** The spec's labels, one per band. */
  readonly labels: readonly string[];
}

const K = 1_000;
const M = 1_000_000;
const B = 1_000_000_000;

function scale(kind: BandScale["kind"], bounds: number[], labels: string[]): BandScale {
  if (labels.length !== bounds.length + 1) throw new Error(`${kind}: one label per band`);
  const upperBounds = bounds.map((b) => new Decimal(b));
  return { kind, upperBounds, upperBoundCents: upperBounds.map((b) => b.times(100).toNumber()), labels };
}

/** The band (0-based bandSeq - 1) of an amount in cents: the first whose upper bound it does not exceed. */
export function bandOfCents(scale: BandScale, cents: number): number {
  const bounds = scale.upperBoundCents;
  let band = 0;
  while (band < bounds.length && cents > bounds[band]!) band++;
  return band;
}

export const LIMIT_BANDS = scale(
  "limit",
  [
    100 * K,
    250 * K,
    500 * K,
    750 * K,
    M,
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
    B,
  ],
  [
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
);

export const PREMIUM_BANDS = scale(
  "premium",
  [
    K,
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
    M,
    2 * M,
    3 * M,
    5 * M,
    10 * M,
  ],
  [
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
);

export const RETENTION_BANDS = scale(
  "retention",
  [
    K,
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
    M,
    2.5 * M,
    5 * M,
    10 * M,
    25 * M,
  ],
  [
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
);
