/**
 * The values at the given positions (0-based, among values[0..n) in ascending order),
 * by quickselect: O(n) on average, and each position after the first searches only
 * what lies above the one before. Reorders values[0..n).
 */
export function selectPositions(values: Float64Array, n: number, positions: readonly number[]): Map<number, number> {
  const found = new Map<number, number>();
  let lo = 0;
  for (const k of [...new Set(positions)].filter((p) => p >= 0 && p < n).sort((a, b) => a - b)) {
    selectInPlace(values, lo, n, k);
    found.set(k, values[k]!);
    lo = k + 1;
  }
  return found;
}

/** Puts the k-th smallest of values[lo..hi) at k, smaller ones before it, larger after (three-way partitions, so ties cost nothing). */
function selectInPlace(values: Float64Array, lo: number, hi: number, k: number): void {
  while (hi - lo > 1) {
    const pivot = medianOfThree(values[lo]!, values[(lo + hi) >>> 1]!, values[hi - 1]!);
    let below = lo;
    let i = lo;
    let above = hi;
    while (i < above) {
      const value = values[i]!;
      if (value < pivot) {
        values[i++] = values[below]!;
        values[below++] = value;
      } else if (value > pivot) {
        values[i] = values[--above]!;
        values[above] = value;
      } else i++;
    }
    if (k < below) hi = below;
    else if (k >= above) lo = above;
    else return;
  }
}

function medianOfThree(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}
