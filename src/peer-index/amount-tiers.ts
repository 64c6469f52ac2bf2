import { NO_ROW, type RowRange } from "./snapshot.js";

/** Tiers an amount's rows are cut into per coverage: 0 to TIERS - 1; NO_TIER for a row without the amount. */
export const TIERS = 4096;
export const NO_TIER = TIERS;

/**
 * Each row's tier of an amount: its place in the coverage's order of that amount (ties
 * by row; rowByRank, from rank-rows.ts), cut into TIERS, so a tier holds about one
 * 4,096th of the coverage's rows (some 290 of coverage 1's 1.17M at Advisen scale, and
 * only those of a peer group among them) and every value of a tier is at most every
 * value of the next. Order statistics of any set of rows then count
 * tiers, not values (tier-select.ts).
 */
export function tiersOfOrder(rowByRank: Uint32Array, { start, end }: RowRange, tiers: Uint16Array): void {
  tiers.fill(NO_TIER, start, end);
  let n = 0;
  while (start + n < end && rowByRank[start + n] !== NO_ROW) n++;
  for (let k = 0; k < n; k++) tiers[rowByRank[start + k]!] = Math.floor((k * TIERS) / n);
}
