/**
 * Bit sets over ranks computed at build time, so there is no sort per request: a
 * request marks the ranks of its loss events, then reads every marked rank in order,
 * O(ranks / 32).
 */

/** Marks rank `index`. */
export function markRank(bits: Uint32Array, index: number): void {
  bits[index >>> 5]! |= 1 << (index & 31);
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
