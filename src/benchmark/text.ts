import { roundHalfAwayFromZero, type Decimal } from "./decimal.js";

/**
 * money(x) of SEMANTICS.md section 5: `$`, x rounded to cents with `,` thousands
 * separators, no decimals when whole: `$0`, `$1,500,000`, `$2,500.50`.
 */
export function money(value: Decimal): string {
  const rounded = roundHalfAwayFromZero(value, 2);
  const [whole, fraction] = rounded.abs().toFixed(2).split(".") as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${rounded.isNegative() && !rounded.isZero() ? "-" : ""}$${grouped}${fraction === "00" ? "" : `.${fraction}`}`;
}

/** ordinal(n): 0th, 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 100th, 101st. */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/** The sentence of a distribution or RPM chart (spec 2.4, 2.6; SEMANTICS.md 6, 7). */
export function chartSentence(what: string, amount: Decimal, percentile: number): string {
  return `The selected company's ${what} of ${money(amount)} puts it in the ${ordinal(percentile)} percentile in relation to its peers.`;
}
