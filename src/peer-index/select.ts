/**
 * The values at the given positions (0-based, among values[0..n) in ascending order),
 * by quickselect: O(n) on average. The middle position wanted is selected first, then
 * those below it among the values below it, those above among the values above
 * (divide and conquer), and a position at either end of its range is a minimum or
 * maximum scan, not a partition: a quantile's two neighbours, i and i + 1, cost one
 * select and one scan. Three quartiles' six neighbours take about 2n partition steps
 * and n scan steps, where selecting each over all the values above the last took 11n.
 * Reorders values[0..n).
 */
export function selectPositions(values: Float64Array, n: number, positions: readonly number[]): Map<number, number> {
  const found = new Map<number, number>();
  const wanted = [...new Set(positions)].filter((p) => p >= 0 && p < n).sort((a, b) => a - b);
  selectAll(values, 0, n, wanted, 0, wanted.length, found);
  return found;
}

/** Selects wanted[from..to), all within [lo, hi), into `found`. */
function selectAll(
  values: Float64Array,
  lo: number,
  hi: number,
  wanted: readonly number[],
  from: number,
  to: number,
  found: Map<number, number>,
): void {
  if (from >= to) return;
  const middle = (from + to) >>> 1;
  const k = wanted[middle]!;
  if (k === lo) moveExtreme(values, lo, hi, lo, (a, b) => a < b);
  else if (k === hi - 1) moveExtreme(values, lo, hi, hi - 1, (a, b) => a > b);
  else selectInPlace(values, lo, hi, k);
  found.set(k, values[k]!);
  selectAll(values, lo, k, wanted, from, middle, found);
  selectAll(values, k + 1, hi, wanted, middle + 1, to, found);
}

/** Swaps the most extreme value of [lo, hi) (by `beats`) to `at`, an end of the range: one scan. */
function moveExtreme(
  values: Float64Array,
  lo: number,
  hi: number,
  at: number,
  beats: (a: number, b: number) => boolean,
): void {
  let best = at;
  for (let i = lo; i < hi; i++) if (beats(values[i]!, values[best]!)) best = i;
  const value = values[best]!;
  values[best] = values[at]!;
  values[at] = value;
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
