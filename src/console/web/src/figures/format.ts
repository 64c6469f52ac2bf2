/**
 * money(x) as SEMANTICS.md 5 writes it in sentences: `$1,500,000`, `$2,500.50`, rounded
 * half away from zero to cents, as the server's `money` (src/benchmark/text.ts) does.
 * The amount is read as decimal text (a number's shortest round-trip text, which is what
 * the API wrote, or the text the broker typed) and rounded on its digits: `x * 100` in
 * floating point would turn 1.005 into $1.00 and lose cents above 2^53.
 */
export function money(value: number | string): string {
  const parts = decimalParts(value);
  if (!parts) return "–";
  const [whole, fraction] = [parts.whole, parts.fraction.padEnd(3, "0")];
  let cents = BigInt(whole + fraction.slice(0, 2));
  if (fraction[2]! >= "5") cents += 1n;
  const dollars = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const rest = (cents % 100n).toString().padStart(2, "0");
  return `${parts.negative && cents > 0n ? "-" : ""}$${dollars}${rest === "00" ? "" : `.${rest}`}`;
}

/** Sign, integer digits and fraction digits of decimal text, exactly; null when it is not a finite decimal. */
function decimalParts(value: number | string): { negative: boolean; whole: string; fraction: string } | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) return null;
  const [, sign = "", intDigits = "", fracDigits = "", exponent = "0"] = match;
  if (intDigits === "" && fracDigits === "") return null;
  // Move the decimal point by the exponent (String(1e21) is "1e+21", String(1e-7) is "1e-7").
  let digits = intDigits + fracDigits;
  let point = intDigits.length + Number(exponent);
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  digits = digits.padEnd(point, "0");
  return {
    negative: sign === "-",
    whole: digits.slice(0, point).replace(/^0+(?=\d)/, "") || "0",
    fraction: digits.slice(point),
  };
}

/**
 * money(x) to the dollar, rounded half away from zero on the digits: loss amounts of
 * millions in a table's narrow columns, where cents are noise ("$6,040,647", not
 * "$6,040,647.04"); a dash where there is no amount.
 */
export function dollarsOrDash(value: number | null | undefined): string {
  const parts = value === null || value === undefined ? null : decimalParts(value);
  if (!parts) return "–";
  const whole = BigInt(parts.whole) + (parts.fraction[0] !== undefined && parts.fraction[0] >= "5" ? 1n : 0n);
  return `${parts.negative && whole > 0n ? "-" : ""}$${whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}

/** money(x), or a dash where there is no amount. */
export const moneyOrDash = (value: number | null | undefined) =>
  value === null || value === undefined ? "–" : money(value);

/** Short axis labels: $250K, $1.5M, $2B. */
export function compactMoney(value: number): string {
  return `$${new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(value)}`;
}

/** Cents in one K, M and B, largest first. */
const SHORT_UNITS = [
  [100_000_000_000n, "B"],
  [100_000_000n, "M"],
  [100_000n, "K"],
] as const;

/**
 * A limit as brokers say it, and exactly: "$10M", "$2.5M", "$250K", "$1.25B"; an amount
 * that is no whole hundredth of its unit is written out ("$12,345,678", "$999,999.99"),
 * never rounded the way compactMoney's "$12.3M" would be: a column headed "above $12.3M"
 * must count the losses above that very amount.
 */
export function shortMoney(value: number): string {
  const parts = decimalParts(value);
  if (!parts || parts.negative || parts.fraction.replace(/0+$/, "").length > 2) return money(value);
  const cents = BigInt(parts.whole + parts.fraction.padEnd(2, "0").slice(0, 2));
  for (const [unit, suffix] of SHORT_UNITS) {
    if (cents < unit || (cents * 100n) % unit !== 0n) continue;
    const hundredths = (cents * 100n) / unit;
    const rest = (hundredths % 100n).toString().padStart(2, "0").replace(/0+$/, "");
    return `$${(hundredths / 100n).toLocaleString("en-US")}${rest ? `.${rest}` : ""}${suffix}`;
  }
  return money(value);
}

export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * The ordinal a chart sentence gives ("81st"), read from the sentence itself: it rounds
 * the exact rank, which a rank already rounded to 2 decimals could round otherwise.
 */
export function sentencePercentile(sentence: string): string | undefined {
  return /in the (\d+(?:st|nd|rd|th)) percentile/.exec(sentence)?.[1];
}
