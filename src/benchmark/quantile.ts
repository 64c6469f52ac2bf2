import { Decimal } from "./decimal.js";

/** The quantile levels the figures use (SEMANTICS.md sections 7 and 9). */
export type QuantileLevel = "0.25" | "0.5" | "0.75";

// Each level as a fraction num/4, so the position is integer arithmetic.
const QUARTERS: Record<QuantileLevel, number> = { "0.25": 1, "0.5": 2, "0.75": 3 };

/**
 * Where q(p) lies among n sorted values (SEMANTICS.md section 5): h = (n - 1)p,
 * i = floor(h); q interpolates s[i] and s[i + 1] by h - i. Exact: h is a multiple of 1/4.
 */
export function quantilePosition(n: number, p: QuantileLevel): { index: number; fraction: Decimal } {
  const quarters = (n - 1) * QUARTERS[p];
  const index = Math.floor(quarters / 4);
  return { index, fraction: new Decimal(quarters - index * 4).div(4) };
}

/** q = s[i] + (h - i)(s[i + 1] - s[i]); just s[i] when it is the last value. */
export function interpolate(lower: Decimal, upper: Decimal | undefined, fraction: Decimal): Decimal {
  if (upper === undefined || fraction.isZero()) return lower;
  return lower.plus(fraction.times(upper.minus(lower)));
}

/**
 * q(p) of n sorted values, read through `valueAt` (only the two neighbours are
 * read, so an engine may find them by selection instead of sorting); 0 when n = 0.
 */
export function quantile(n: number, p: QuantileLevel, valueAt: (index: number) => Decimal): Decimal {
  if (n === 0) return new Decimal(0);
  const { index, fraction } = quantilePosition(n, p);
  return interpolate(valueAt(index), index + 1 < n ? valueAt(index + 1) : undefined, fraction);
}
