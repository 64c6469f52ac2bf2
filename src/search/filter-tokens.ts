import { QuerySyntaxError } from "./filter-syntax.js";

export type Token =
  | { kind: "word"; text: string; position: number }
  | { kind: "string"; value: string; text: string; position: number }
  | { kind: "integer"; value: bigint; text: string; position: number }
  | { kind: "punctuation"; text: "(" | ")" | ","; position: number }
  | { kind: "end"; text: ""; position: number };

const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{Mn}\p{Nd}_]/u;

/**
 * Splits a `$filter` into tokens. Positions count code points (SEMANTICS.md section
 * 10), so the text is walked as an array of code points, not UTF-16 units.
 */
export function tokenize(text: string): Token[] {
  const chars = [...text];
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (/\s/u.test(c)) {
      i++;
    } else if (c === "(" || c === ")" || c === ",") {
      tokens.push({ kind: "punctuation", text: c, position: i++ });
    } else if (c === "\u0000") {
      throw new QuerySyntaxError("unexpected NUL character", i); // text PostgreSQL cannot hold
    } else if (c === "'") {
      const start = i++;
      let value = "";
      for (;;) {
        if (i >= chars.length) throw new QuerySyntaxError("unterminated string", start);
        if (chars[i] === "\u0000") throw new QuerySyntaxError("unexpected NUL character", i);
        if (chars[i] === "'") {
          if (chars[i + 1] === "'") {
            value += "'"; // '' is one quote
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += chars[i++];
      }
      tokens.push({ kind: "string", value, text: chars.slice(start, i).join(""), position: start });
    } else if (/[0-9]/u.test(c) || (c === "-" && /[0-9]/u.test(chars[i + 1] ?? ""))) {
      const start = i++;
      while (i < chars.length && /[0-9]/u.test(chars[i]!)) i++;
      if (i < chars.length && WORD_PART.test(chars[i]!)) {
        while (i < chars.length && WORD_PART.test(chars[i]!)) i++;
        throw new QuerySyntaxError(`unexpected '${chars.slice(start, i).join("")}'`, start);
      }
      const digits = chars.slice(start, i).join("");
      tokens.push({ kind: "integer", value: BigInt(digits), text: digits, position: start });
    } else if (WORD_START.test(c)) {
      const start = i;
      while (i < chars.length && WORD_PART.test(chars[i]!)) i++;
      tokens.push({ kind: "word", text: chars.slice(start, i).join(""), position: start });
    } else {
      throw new QuerySyntaxError(`unexpected '${c}'`, i);
    }
  }
  tokens.push({ kind: "end", text: "", position: chars.length });
  return tokens;
}
