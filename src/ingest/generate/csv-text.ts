/**
 * Cheap CSV field text for the generator's hot loops. Writing millions of rows
 * through a general CSV serializer costs more than generating them; here only text
 * fields go through `csvField`, and numbers are written as they are.
 */

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180: a field holding a comma, quote or line break is quoted, quotes doubled. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole number of cents as a decimal with two places: 123456 -> "1234.56". */
function formatCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents - whole * 100;
  return `${whole}.${rest < 10 ? "0" : ""}${rest}`;
}

/** A money amount as written by a partner: whole dollars, or dollars and cents. */
export function formatMoney(dollars: number, withCents: boolean): string {
  return withCents ? formatCents(Math.round(dollars * 100)) : String(Math.round(dollars));
}
