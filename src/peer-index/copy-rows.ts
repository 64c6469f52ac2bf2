import type { Readable } from "node:stream";

const TAB = 9;
const NEWLINE = 10;
const BACKSLASH = 92;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const UPPER_N = 78;
/** The control characters COPY writes as a backslash and a letter (b f n r t v), by the letter's byte. */
const CONTROL_ESCAPES = new Map([
  [98, 8],
  [102, 12],
  [110, 10],
  [114, 13],
  [116, 9],
  [118, 11],
]);

/**
 * One row of a `COPY ... TO STDOUT` in text format, read in place: fields are byte
 * ranges of the stream's buffer, turned into numbers without making a string or an
 * object per row (4 million rows must not become 4 million objects: issue 11). The
 * build selects integers, decimals and upper-case codes, none of which COPY escapes,
 * and one free text, the programs' source, which source-dictionary.ts reads by its
 * bytes as sent and turns into text (unescapedText) once per distinct source.
 */
export class CopyRow {
  /** The buffer the current row lies in. */
  buffer: Buffer = Buffer.alloc(0);
  readonly starts: Int32Array;
  readonly ends: Int32Array;

  constructor(readonly fieldCount: number) {
    this.starts = new Int32Array(fieldCount);
    this.ends = new Int32Array(fieldCount);
  }

  /** COPY writes SQL NULL as `\N` (a text of one backslash is `\\`). */
  isNull(field: number): boolean {
    const start = this.starts[field]!;
    return this.ends[field]! - start === 2 && this.buffer[start] === BACKSLASH && this.buffer[start + 1] === UPPER_N;
  }

  /**
   * A decimal field as an integer count of 10^-places units (cents for places = 2),
   * NaN for NULL. Digits past `places` are an error: the columns read have at most that
   * many. A value beyond 2^53 - 1 comes back larger than Number.MAX_SAFE_INTEGER (and
   * inexact): callers test for that and never serve it from the index.
   */
  scaled(field: number, places: number): number {
    if (this.isNull(field)) return Number.NaN;
    const buffer = this.buffer;
    const end = this.ends[field]!;
    let i = this.starts[field]!;
    const negative = buffer[i] === MINUS;
    if (negative) i++;
    let value = 0;
    let decimals = -1;
    for (; i < end; i++) {
      const byte = buffer[i]!;
      if (byte === DOT && decimals < 0) {
        decimals = 0;
        continue;
      }
      const digit = byte - ZERO;
      if (digit < 0 || digit > 9) throw new Error(`COPY field ${field}: not a number: ${this.text(field)}`);
      value = value * 10 + digit;
      if (decimals >= 0) decimals++;
    }
    if (decimals > places) throw new Error(`COPY field ${field}: more than ${places} decimals: ${this.text(field)}`);
    for (let d = Math.max(decimals, 0); d < places; d++) value *= 10;
    return negative ? -value : value;
  }

  /** An integer field; NaN for NULL. */
  integer(field: number): number {
    return this.scaled(field, 0);
  }

  /**
   * A short upper-case code (organization types: 2 to 8 letters) as a number, each
   * letter 5 bits, so codes can be told apart without making a string per row.
   */
  codeKey(field: number): number {
    let key = 0;
    for (let i = this.starts[field]!; i < this.ends[field]!; i++) key = key * 32 + (this.buffer[i]! & 31);
    return key;
  }

  /**
   * A text field as it was stored (UTF-8, node-postgres's client encoding). COPY TO
   * writes a backslash before a backslash, and \b \f \n \r \t \v for those control
   * characters, and "will never emit an octal or hex-digits backslash sequence"
   * (PostgreSQL's COPY, "Text Format").
   */
  unescapedText(field: number): string {
    const buffer = this.buffer;
    const end = this.ends[field]!;
    const bytes: number[] = [];
    for (let i = this.starts[field]!; i < end; i++) {
      const byte = buffer[i]!;
      if (byte === BACKSLASH && i + 1 < end) {
        const escaped = buffer[++i]!;
        bytes.push(CONTROL_ESCAPES.get(escaped) ?? escaped);
      } else {
        bytes.push(byte);
      }
    }
    return Buffer.from(bytes).toString("utf8");
  }

  /** The field's text (for dictionaries of short codes and for error messages). */
  text(field: number): string {
    return this.buffer.toString("latin1", this.starts[field]!, this.ends[field]!);
  }
}

/**
 * Streams the rows of a COPY TO STDOUT (text format) through `onRow`, one reused
 * CopyRow per stream. Rows may straddle chunks: the tail of a chunk waits for the next.
 */
export async function forEachCopyRow(
  stream: Readable,
  fieldCount: number,
  onRow: (row: CopyRow) => void,
): Promise<number> {
  const row = new CopyRow(fieldCount);
  const { starts, ends } = row;
  let rows = 0;
  let carry: Buffer | undefined;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    row.buffer = buffer;
    let field = 0;
    let lineStart = 0;
    starts[0] = 0;
    for (let i = 0; i < buffer.length; i++) {
      const byte = buffer[i];
      if (byte === TAB) {
        if (field + 1 >= fieldCount) throw new Error(`COPY row ${rows + 1}: more than ${fieldCount} fields`);
        ends[field] = i;
        starts[++field] = i + 1;
      } else if (byte === NEWLINE) {
        if (field + 1 !== fieldCount) throw new Error(`COPY row ${rows + 1}: ${field + 1} fields, not ${fieldCount}`);
        ends[field] = i;
        onRow(row);
        rows++;
        field = 0;
        lineStart = i + 1;
        starts[0] = lineStart;
      }
    }
    carry = lineStart < buffer.length ? buffer.subarray(lineStart) : undefined;
  }
  if (carry) throw new Error("COPY output ended inside a row");
  return rows;
}
