/**
 * Weighted choice by inverse CDF: a cumulative table searched by bisection, so a
 * draw costs O(log n) whether there are ten coverages or 650,000 companies.
 */
export type WeightedIndex = (u: number) => number;

/** Maps a uniform `u` in [0, 1) to an index drawn with probability weight / total. */
export function createWeightedIndex(weights: ArrayLike<number>): WeightedIndex {
  const n = weights.length;
  if (n === 0) throw new RangeError("weighted choice needs at least one weight");
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i] as number;
    if (!(w >= 0)) throw new RangeError(`weight ${i} is ${w}; weights must be >= 0`);
    total += w;
    cumulative[i] = total;
  }
  if (!(total > 0)) throw new RangeError("weights must not all be zero");
  return (u) => {
    const target = u * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/** A weighted choice over items that carry their own `weight`. */
export function createWeightedPick<T extends { weight: number }>(items: readonly T[]): (u: number) => T {
  const index = createWeightedIndex(items.map((item) => item.weight));
  return (u) => items[index(u)] as T;
}
