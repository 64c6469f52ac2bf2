/**
 * Amounts as a broker types them: "5M", "10m", "2.5 M", "$250K", "1,500,000", "1.2B".
 * Read exactly, on the digits (no floating point, so "1.15M" is 1150000, not 1149999.99),
 * into the plain decimal text the URL and the API take.
 */
const SUFFIX_DIGITS: Readonly<Record<string, number>> = { "": 0, k: 3, m: 6, b: 9 };

/** Dollars are cents at most (SEMANTICS.md 5): more decimals than 2 after scaling are refused. */
const MAX_DECIMALS = 2;

/** The decimal text `text` stands for, or null when it is not an amount. Separators ($ , _ spaces) are dropped. */
export function parseAmount(text: string): string | null {
  const clean = text.replace(/[\s,$_]/g, "").toLowerCase();
  const match = /^(\d*)(?:\.(\d*))?([kmb]?)$/.exec(clean);
  if (!match) return null;
  const [, whole = "", fraction = "", suffix = ""] = match;
  if (whole === "" && fraction === "") return null;
  const shift = SUFFIX_DIGITS[suffix]!;
  // Move the decimal point right by the suffix's digits.
  const digits = whole + fraction.padEnd(shift, "0");
  const point = whole.length + shift;
  const intPart = digits.slice(0, point).replace(/^0+(?=\d)/, "") || "0";
  const fracPart = digits.slice(point).replace(/0+$/, "");
  if (fracPart.length > MAX_DECIMALS) return null;
  return fracPart === "" ? intPart : `${intPart}.${fracPart}`;
}
