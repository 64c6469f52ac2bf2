import type { ProgramColumns } from "./snapshot.js";
import { NO_TIER } from "./amount-tiers.js";

/** The program amounts whose order statistics are selected together. */
export const AMOUNTS = ["limit", "premium", "retention", "rpm"] as const;
export type Amount = (typeof AMOUNTS)[number];

/** One amount's selection: how many rows have it, and the row at each wanted position. */
export interface SelectedRows {
  n: number;
  rowAt: Map<number, number>;
}

const SIZE = NO_TIER + 1;
const counts = AMOUNTS.map(() => new Int32Array(SIZE)) as [Int32Array, Int32Array, Int32Array, Int32Array];
const wanted = AMOUNTS.map(() => new Uint8Array(SIZE)) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];

/**
 * The rows at the given positions (0-based, in ascending order of the amount) among
 * rows[0..length) that have it, for the four amounts at once, in two passes over the
 * rows' 16-bit tiers (amount-tiers.ts): the first counts each amount's rows per tier,
 * which tells the tier and the rank within it of every position; the second gathers
 * the few rows of those tiers, and a sort of each tier's rows by value finishes. The
 * passes read 8 bytes a row for all four amounts, and count into four tables side by
 * side. `compare` orders two rows of an amount by value (exactly, for RPMs past
 * 2^53 - 1).
 */
export function selectAmountRows(
  programs: ProgramColumns,
  rows: Uint32Array,
  positionsOf: (n: number) => number[],
  compare: (amount: Amount, a: number, b: number) => number,
): Record<Amount, SelectedRows> {
  const { limitTier, premiumTier, retentionTier, rpmTier } = programs;
  const [c0, c1, c2, c3] = counts;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    c0[limitTier[row]!]!++;
    c1[premiumTier[row]!]!++;
    c2[retentionTier[row]!]!++;
    c3[rpmTier[row]!]!++;
  }
  const places = AMOUNTS.map((_, a) => placesOf(counts[a]!, rows.length - counts[a]![NO_TIER]!, positionsOf));
  for (const count of counts) count.fill(0);
  places.forEach(({ found }, a) => found.forEach(({ tier }) => (wanted[a]![tier] = 1)));
  const [w0, w1, w2, w3] = wanted;
  const gathered: number[][] = [[], [], [], []];
  // Few rows are in a wanted tier: a branch rarely taken.
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    if (w0[limitTier[row]!] === 1) gathered[0]!.push(row);
    if (w1[premiumTier[row]!] === 1) gathered[1]!.push(row);
    if (w2[retentionTier[row]!] === 1) gathered[2]!.push(row);
    if (w3[rpmTier[row]!] === 1) gathered[3]!.push(row);
  }
  const tiersOf = [limitTier, premiumTier, retentionTier, rpmTier];
  const selected = AMOUNTS.map((amount, a) => {
    const { n, found } = places[a]!;
    for (const { tier } of found) wanted[a]![tier] = 0;
    const byTier = new Map<number, number[]>();
    for (const row of gathered[a]!) {
      const tier = tiersOf[a]![row]!;
      (byTier.get(tier) ?? byTier.set(tier, []).get(tier)!).push(row);
    }
    for (const tierRows of byTier.values()) tierRows.sort((x, y) => compare(amount, x, y));
    const rowAt = new Map(found.map(({ position, tier, below }) => [position, byTier.get(tier)![position - below]!]));
    return [amount, { n, rowAt }] as const;
  });
  return Object.fromEntries(selected) as Record<Amount, SelectedRows>;
}

/** Each wanted position's tier and how many rows lie in the tiers below it. */
function placesOf(
  count: Int32Array,
  n: number,
  positionsOf: (n: number) => number[],
): { n: number; found: { position: number; tier: number; below: number }[] } {
  const positions = [...new Set(positionsOf(n))].filter((p) => p >= 0 && p < n).sort((a, b) => a - b);
  const found: { position: number; tier: number; below: number }[] = [];
  let below = 0;
  for (let tier = 0, w = 0; w < positions.length; tier++) {
    const inTier = count[tier]!;
    while (w < positions.length && positions[w]! < below + inTier)
      found.push({ position: positions[w++]!, tier, below });
    below += inTier;
  }
  return { n, found };
}
