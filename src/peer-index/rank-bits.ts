/**
 * Bit sets over ranks computed at build time: a request marks the ranks of its rows,
 * then reads order statistics (the k-th marked rank) or every marked rank in order.
 * Marking is O(rows); reading is O(ranks / 32), so there is no sort per request.
 */

/** Marks rank `rank`. */
export function markRank(bits: Uint32Array, rank: number): void {
  bits[rank >>> 5]! |= 1 << (rank & 31);
}

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The marked ranks at the given positions (0-based, ascending, each below the number
 * of marked ranks) among the first `size` ranks: the k-th smallest marked rank for each k.
 */
export function nthMarkedRanks(bits: Uint32Array, size: number, positions: readonly number[]): number[] {
  const ranks: number[] = [];
  const words = Math.ceil(size / 32);
  let seen = 0;
  let next = 0;
  for (let w = 0; w < words && next < positions.length; w++) {
    const word = bits[w]!;
    if (word === 0) continue;
    const count = popcount(word);
    while (next < positions.length && positions[next]! < seen + count) {
      let rest = word;
      for (let skip = positions[next]! - seen; skip > 0; skip--) rest &= rest - 1; // drop the lowest set bits
      ranks.push(w * 32 + 31 - Math.clz32(rest & -rest));
      next++;
    }
    seen += count;
  }
  return ranks;
}

/** Calls `visit` with every marked rank among the first `size`, ascending. */
export function forEachMarkedRank(bits: Uint32Array, size: number, visit: (rank: number) => void): void {
  const words = Math.ceil(size / 32);
  for (let w = 0; w < words; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const lowest = word & -word;
      visit(w * 32 + 31 - Math.clz32(lowest));
      word ^= lowest;
    }
  }
}
