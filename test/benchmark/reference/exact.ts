import { Decimal } from "decimal.js";

/**
 * Exact arithmetic for the reference model (SEMANTICS.md section 5): amounts are
 * BigInt cents, fractions are BigInt rationals, and rounding is half away from
 * zero, done once on the exact value. No binary floating point anywhere.
 */

/** A non-negative rational number num / den (den > 0). */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/**
 * Decimal text (`"1500000"`, `"2500.5"`, `"1.005"`) as BigInt cents, rounded half away
 * from zero to 2 decimals first (DATA-FORMAT.md: decimals are stored with 2 places).
 */
export function toCents(text: string): bigint {
  // toFixed is exact whatever the precision setting; ROUND_HALF_UP ties away from zero.
  return BigInt(new Decimal(text).toFixed(2, Decimal.ROUND_HALF_UP).replace(".", ""));
}

/** round(num / den) half away from zero, for num / den >= 0. */
export function roundRatio({ num, den }: Ratio): bigint {
  if (num < 0n || den <= 0n) throw new RangeError("roundRatio expects a non-negative ratio");
  return (2n * num + den) / (2n * den);
}

/** round(x, decimals) of a ratio, as the integer x * 10^decimals. */
export function roundRatioTo(ratio: Ratio, decimals: number): bigint {
  const scale = 10n ** BigInt(decimals);
  return roundRatio({ num: ratio.num * scale, den: ratio.den });
}

/** The decimal text of `scaled / 10^decimals`, e.g. (12345n, 2) -> "123.45". */
export function scaledToText(scaled: bigint, decimals: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? "-" : ""}${whole}${decimals > 0 ? `.${fraction}` : ""}`;
}

/** The JSON number of `scaled / 10^decimals`, converted from its exact decimal text only here. */
export function scaledToNumber(scaled: bigint, decimals: number): number {
  return Number(new Decimal(scaledToText(scaled, decimals)).toString());
}

/** Cents as a JSON number of dollars. */
export function centsToNumber(cents: bigint): number {
  return scaledToNumber(cents, 2);
}
