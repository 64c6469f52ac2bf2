/**
 * A company's NAICS code as one small integer key (SEMANTICS.md section 1). Rows are
 * grouped by key within a coverage, so a peer group's 2- and 3-digit codes name the
 * groups to read, and every row of them matches its NAICS rule:
 * - 0..999: a code of 3 digits or more, keyed by its first 3 digits (its 2-digit
 *   prefix is key / 10, leading zeros included: "052" is 52, its prefix "05" is 5);
 * - 1000..1099: a code of exactly 2 digits, 1000 + the code;
 * - 1100: no code, which no peer group matches (the build leaves such companies'
 *   rows out, but the key keeps the encoding total).
 */
export const NO_NAICS = 1100;
export const NAICS_KEYS = NO_NAICS + 1;

/** The key of a company from its naics2 and naics3 prefixes (NaN when absent). */
export function naicsKey(naics2: number, naics3: number): number {
  if (!Number.isNaN(naics3)) return naics3;
  if (!Number.isNaN(naics2)) return 1000 + naics2;
  return NO_NAICS;
}

/**
 * The keys a peer group's codes match, ascending: a 3-digit code its own key; a
 * 2-digit code the ten 3-digit keys below it and its own 2-digit key.
 */
export function naicsKeysOf(naics2: readonly string[], naics3: readonly string[]): number[] {
  const keys = new Set<number>();
  for (const code of naics2) {
    const prefix = Number(code);
    for (let digit = 0; digit < 10; digit++) keys.add(prefix * 10 + digit);
    keys.add(1000 + prefix);
  }
  for (const code of naics3) keys.add(Number(code));
  return [...keys].sort((a, b) => a - b);
}
