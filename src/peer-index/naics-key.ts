/**
 * A company's NAICS code as one small integer key, so a peer group's list of 2- and
 * 3-digit codes becomes one lookup table (SEMANTICS.md section 1):
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

/** The table of keys a peer group's codes match: 1 where a company matches. */
export function naicsTable(naics2: readonly string[], naics3: readonly string[]): Uint8Array {
  const table = new Uint8Array(NAICS_KEYS);
  for (const code of naics2) {
    const prefix = Number(code);
    table[1000 + prefix] = 1;
    table.fill(1, prefix * 10, prefix * 10 + 10);
  }
  for (const code of naics3) table[Number(code)] = 1;
  return table;
}
