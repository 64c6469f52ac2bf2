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
  const index = quantileIndex(n, p);
  return { index, fraction: new Decimal((n - 1) * QUARTERS[p] - index * 4).div(4) };
}

/** i of quantilePosition alone: what an engine reads to find the neighbours, without a Decimal. */
export function quantileIndex(n: number, p: QuantileLevel): number {
  return Math.floor(((n - 1) * QUARTERS[p]) / 4);
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

/**
 * quantile(n, p, ...).div(100) of n sorted whole numbers of cents (`centsAt`), in
 * dollars, computed in whole quarter-cents: 4q = 4 s[i] + f (s[i + 1] - s[i]) with f =
 * 4(h - i), one of 0 to 3, so a single decimal is made at the end. A market trend reads
 * 144 quartiles: in decimals each step made one (the position's fraction, the two
 * values, the difference, the product, the sum), some 1 µs apiece.
 */
export function quantileOfCents(n: number, p: QuantileLevel, centsAt: (index: number) => bigint | number): Decimal {
  if (n === 0) return new Decimal(0);
  const quarters = (n - 1) * QUARTERS[p];
  const index = Math.floor(quarters / 4);
  const fraction = quarters - index * 4;
  const lower = BigInt(centsAt(index));
  const quarterCents =
    fraction === 0 || index + 1 >= n
      ? 4n * lower
      : 4n * lower + BigInt(fraction) * (BigInt(centsAt(index + 1)) - lower);
  return new Decimal(quarterCents.toString()).div(400);
}
