import { NO_ROW, type CoverageSlices, type RowRange, type TierBounds } from "./snapshot.js";

/** Tiers an amount's rows are cut into per coverage: 0 to TIERS - 1; NO_TIER for a row without the amount. */
export const TIERS = 4096;
export const NO_TIER = TIERS;

/**
 * Bounds of an amount without rows. Shared memory: a market trend's job hands its
 * coverage's bounds to the scan thread (scan-protocol.ts), and a SharedArrayBuffer
 * crosses without a copy.
 */
function emptyTierBounds(): TierBounds {
  const bounds = () => new Float64Array(new SharedArrayBuffer(TIERS * Float64Array.BYTES_PER_ELEMENT)).fill(-Infinity);
  return { least: bounds(), greatest: bounds() };
}

/** A coverage's tier bounds before it has rows (or for a coverage the snapshot lacks). */
export function emptyCoverageTierBounds(): CoverageSlices["tierBounds"] {
  return { limit: emptyTierBounds(), premium: emptyTierBounds(), retention: emptyTierBounds() };
}

/**
 * Each row's tier of an amount: its place in the coverage's order of that amount (ties
 * by row; rowByRank, from rank-rows.ts), cut into TIERS, so a tier holds about one
 * 4,096th of the coverage's rows (some 290 of coverage 1's 1.17M at Advisen scale, and
 * only those of a peer group among them) and every value of a tier is at most every
 * value of the next. Order statistics of any set of rows then count
 * tiers, not values (tier-select.ts). Returns each tier's bounds.
 */
export function tiersOfOrder(
  values: Float64Array,
  rowByRank: Uint32Array,
  { start, end }: RowRange,
  tiers: Uint16Array,
): TierBounds {
  tiers.fill(NO_TIER, start, end);
  let n = 0;
  while (start + n < end && rowByRank[start + n] !== NO_ROW) n++;
  const { least, greatest } = emptyTierBounds();
  let tier = -1;
  let previous = -Infinity;
  for (let k = 0; k < n; k++) {
    const row = rowByRank[start + k]!;
    const value = values[row]!;
    const rowTier = Math.floor((k * TIERS) / n);
    if (rowTier > tier) {
      // The first row of a tier: the tiers skipped on the way to it are empty.
      least.fill(previous, tier + 1, rowTier);
      greatest.fill(previous, tier + 1, rowTier);
      tier = rowTier;
      least[tier] = value;
    }
    greatest[tier] = previous = value;
    tiers[row] = tier;
  }
  least.fill(previous, tier + 1);
  greatest.fill(previous, tier + 1);
  return { least, greatest };
}
