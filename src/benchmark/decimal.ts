import * as decimalJs from "decimal.js";

// decimal.js types itself as CommonJS while Node loads its ES module: the class
// is the module's default export either way.
const DecimalJs = decimalJs.default as unknown as typeof decimalJs.Decimal;

/**
 * Exact decimal arithmetic for the figures (SEMANTICS.md section 5): money, RPM and
 * percentiles are never binary floating point until the answer is written. A private
 * Decimal class, so no other code's settings can change ours. 60 significant digits
 * decide every rounding here exactly: a quotient that is not a tie lies at least
 * 1/(2N) from one, N being a count or an amount in cents, far above 10^-40.
 */
export const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;

/** round(x) of SEMANTICS.md: half away from zero, to `places` decimals. */
export function roundHalfAwayFromZero(value: Decimal, places: number): Decimal {
  // decimal.js's ROUND_HALF_UP rounds ties away from zero, for negatives too.
  return value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
}

/** A request amount's decimal text as exact cents, rounded once: 1.005 is 1.01, -0.004 is 0. */
export function toCents(text: string): Decimal {
  const cents = roundHalfAwayFromZero(new Decimal(text), 2);
  return cents.isZero() ? new Decimal(0) : cents;
}

/**
 * A decimal as the JSON number of an answer: exact up to 15 significant digits, which
 * figures computed from the data stay within; an amount echoed as the caller sent it (a
 * loss experience's limit) may have more, and is then the nearest double.
 */
export function toNumber(value: Decimal): number {
  return Number(value.toString());
}

/**
 * The exact sum of whole numbers >= 0. Partial sums only grow, so when the float sum
 * ends at or below 2^53 - 1 every step was exact; otherwise it is summed again in BigInt.
 */
export function sumOf(amounts: ArrayLike<number>): Decimal {
  let sum = 0;
  for (let i = 0; i < amounts.length; i++) sum += amounts[i]!;
  if (sum <= Number.MAX_SAFE_INTEGER) return new Decimal(sum);
  let exact = 0n;
  for (let i = 0; i < amounts.length; i++) exact += BigInt(amounts[i]!);
  return new Decimal(exact.toString());
}
