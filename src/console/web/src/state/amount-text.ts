/**
 * Amounts as a broker types them: "5M", "10m", "2.5 M", "$250K", "1,500,000", "1.2B",
 * "5MM" (US brokers' million), "5 million", "250 thousand". Read exactly, on the digits
 * (no floating point, so "1.15M" is 1150000, not 1149999.99), into the plain decimal
 * text the URL and the API take.
 *
 * A comma is a thousands separator only where it is one: before groups of three digits
 * ("1,500,000"). Anywhere else ("1,5m", "10,5") it may be a decimal comma, which would be
 * a different amount by a factor of a thousand or more: refused, with a hint, never guessed.
 */
const SCALE_DIGITS: Readonly<Record<string, number>> = {
  "": 0,
  k: 3,
  thousand: 3,
  m: 6,
  mm: 6,
  mn: 6,
  mio: 6,
  million: 6,
  b: 9,
  bn: 9,
  billion: 9,
};

/** Dollars are cents at most (SEMANTICS.md 5): more decimals than 2 after scaling are refused. */
const MAX_DECIMALS = 2;

export const AMOUNT_HINT =
  "An amount, up to 2 decimals; 250K, 5M (or 5MM, 5 million) and 1.2B are read as thousands, millions and billions.";

export type AmountReading = { amount: string } | { problem: string };

/**
 * The decimal text `text` stands for, or why it is not an amount. Dollar signs,
 * spaces and underscores are dropped; commas only between groups of three digits.
 */
export function readAmount(text: string): AmountReading {
  const clean = text.replace(/[\s$_]/g, "").toLowerCase();
  const match = /^([\d,]*)(?:\.(\d*))?([a-z]*)$/.exec(clean);
  if (!match) return { problem: AMOUNT_HINT };
  const [, grouped = "", fraction = "", scale = ""] = match;
  if (grouped.includes(",") && !/^\d{1,3}(,\d{3})+$/.test(grouped))
    return {
      problem: `“${text.trim()}”: a comma here could be a decimal comma. Write decimals with a point (1.5M), and commas only between thousands (1,500,000).`,
    };
  const whole = grouped.replaceAll(",", "");
  const shift = SCALE_DIGITS[scale.length > 3 ? scale.replace(/s$/, "") : scale]; // "millions"
  if (shift === undefined || (whole === "" && fraction === "")) return { problem: AMOUNT_HINT };
  // Move the decimal point right by the scale's digits.
  const digits = whole + fraction.padEnd(shift, "0");
  const point = whole.length + shift;
  const intPart = digits.slice(0, point).replace(/^0+(?=\d)/, "") || "0";
  const fracPart = digits.slice(point).replace(/0+$/, "");
  if (fracPart.length > MAX_DECIMALS) return { problem: "Dollars have at most 2 decimals (cents)." };
  return { amount: fracPart === "" ? intPart : `${intPart}.${fracPart}` };
}

/** The decimal text `text` stands for, or null when it is not an amount. */
export function parseAmount(text: string): string | null {
  const reading = readAmount(text);
  return "amount" in reading ? reading.amount : null;
}
