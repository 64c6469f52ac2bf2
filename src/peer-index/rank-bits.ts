import { NO_ROW, type RowRange } from "./snapshot.js";

/**
 * Bit sets for order statistics over orders computed at build time, so there is no
 * sort per request. Loss events: a request marks the ranks of its rows, then reads
 * every marked rank in order, O(ranks / 32). Programs: a request marks its rows, then
 * walks the coverage's order of rows, counting the marked ones, until it has the
 * positions it wants.
 */

/** Marks rank (or coverage row) `index`. */
export function markRank(bits: Uint32Array, index: number): void {
  bits[index >>> 5]! |= 1 << (index & 31);
}

/**
 * The marked rows at the given positions (0-based among the `marked` rows, in the
 * order `rowByRank` gives the coverage's rows; bits over rows, from the coverage's
 * start). Positions in the lower half are found walking from the first rank up, the
 * others from the last rank down, so the walk covers about half the coverage for a
 * median, and the largest value costs a few steps.
 */
export function nthMarkedRows(
  bits: Uint32Array,
  rowByRank: Uint32Array,
  coverage: RowRange,
  marked: number,
  positions: readonly number[],
): Map<number, number> {
  const found = new Map<number, number>();
  const wanted = [...new Set(positions)].filter((p) => p >= 0 && p < marked).sort((a, b) => a - b);
  const lower = wanted.filter((p) => p < marked / 2);
  const upper = wanted
    .filter((p) => p >= marked / 2)
    .map((p) => marked - 1 - p)
    .sort((a, b) => a - b);
  walk(bits, rowByRank, coverage, lower, 1, (k, row) => found.set(k, row));
  walk(bits, rowByRank, coverage, upper, -1, (k, row) => found.set(marked - 1 - k, row));
  return found;
}

/** Walks the order from one end (step 1: the first rank up; -1: the last down), reporting the k-th marked row for each k wanted (ascending). */
function walk(
  bits: Uint32Array,
  rowByRank: Uint32Array,
  { start, end }: RowRange,
  wanted: number[],
  step: 1 | -1,
  report: (k: number, row: number) => void,
): void {
  if (wanted.length === 0) return;
  let next = 0;
  let target = wanted[0]!;
  let seen = 0;
  for (let at = step === 1 ? start : end - 1; at >= start && at < end; at += step) {
    const row = rowByRank[at]!;
    if (row === NO_ROW) continue; // the coverage's rows without the value, after the ranked ones
    const offset = row - start;
    const hit = (bits[offset >>> 5]! >>> (offset & 31)) & 1;
    // Taken once per position wanted: no branch per row on whether it is marked.
    if (hit & +(seen === target)) {
      report(target, row);
      if (++next === wanted.length) return;
      target = wanted[next]!;
    }
    seen += hit;
  }
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
