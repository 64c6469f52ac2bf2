import type { Ratio } from "./exact.js";

/**
 * Percentile rank of x among values (SEMANTICS.md section 5):
 * P = 100 * (L + E/2) / N = 100 * (2L + E) / 2N; N = 0 gives 0.
 */
export function percentileRank(values: readonly bigint[], x: bigint): Ratio {
  if (values.length === 0) return { num: 0n, den: 1n };
  let below = 0n;
  let equal = 0n;
  for (const v of values) {
    if (v < x) below++;
    else if (v === x) equal++;
  }
  return { num: 100n * (2n * below + equal), den: 2n * BigInt(values.length) };
}

/**
 * Quantile q(p) by linear interpolation (PERCENTILE.INC), p = pNum / pDen:
 * h = (N-1)p, i = floor(h), q = s[i] + (h - i)(s[i+1] - s[i]); N = 0 gives 0.
 */
export function quantile(values: readonly bigint[], pNum: bigint, pDen: bigint): Ratio {
  if (values.length === 0) return { num: 0n, den: 1n };
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hNum = BigInt(sorted.length - 1) * pNum; // h = hNum / pDen
  const i = hNum / pDen;
  const remainder = hNum % pDen; // h - i = remainder / pDen
  const low = sorted[Number(i)] as bigint;
  if (Number(i) === sorted.length - 1) return { num: low, den: 1n };
  const high = sorted[Number(i) + 1] as bigint;
  return { num: low * pDen + remainder * (high - low), den: pDen };
}

/** The largest value; 0 for none. */
export function maximum(values: readonly bigint[]): bigint {
  let max = 0n;
  for (const v of values) if (v > max) max = v;
  return max;
}
