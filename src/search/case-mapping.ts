/**
 * Unicode's simple lower-case mapping, code point by code point (SEMANTICS.md section
 * 10), as PostgreSQL's lower() applies it under a UTF-8 locale. JavaScript's
 * toLowerCase() is the full mapping: it differs for U+0130 (İ), which it maps to two
 * code points, and for a final Σ, which it maps by context; per code point, only
 * U+0130 needs its simple mapping spelled out.
 */
export function simpleLowerCase(text: string): string {
  let lower = "";
  for (const c of text) lower += c === "\u0130" ? "i" : c.toLowerCase();
  return lower;
}
