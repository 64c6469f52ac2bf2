/**
 * Order statistics without a sort (issue 11: no full sort per request): a multi-way
 * quickselect with three-way partitions, so ties (common among amounts) cost nothing
 * extra. Afterwards values[k] holds the k-th smallest (0-based) for every wanted k.
 * Expected O(n log m) for m wanted ranks; the pivots are random, so no input order is
 * a worst case.
 */
export function selectRanks(values: Float64Array, n: number, ranks: readonly number[]): void {
  const wanted = [...new Set(ranks)].filter((k) => k >= 0 && k < n).sort((a, b) => a - b);
  const stack: [number, number, number, number][] = [[0, n - 1, 0, wanted.length - 1]];
  while (stack.length > 0) {
    const [lo, hi, first, last] = stack.pop()!;
    if (first > last || lo >= hi) continue;
    const pivot = values[lo + Math.floor(Math.random() * (hi - lo + 1))]!;
    // Dijkstra's partition: [lo, lt) < pivot, [lt, gt] = pivot, (gt, hi] > pivot.
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i <= gt) {
      const value = values[i]!;
      if (value < pivot) {
        values[i++] = values[lt]!;
        values[lt++] = value;
      } else if (value > pivot) {
        values[i] = values[gt]!;
        values[gt--] = value;
      } else i++;
    }
    let split = first;
    while (split <= last && wanted[split]! < lt) split++;
    let after = split;
    while (after <= last && wanted[after]! <= gt) after++;
    stack.push([lo, lt - 1, first, split - 1], [gt + 1, hi, after, last]);
  }
}
