import { Transform, type TransformCallback } from "node:stream";

/** About how many characters are handed to COPY in one chunk. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Turns parsed CSV records (arrays of strings, the header first) into PostgreSQL
 * COPY text format with the given columns, in that order. Columns are found by
 * header name; unknown headers are ignored and a missing column is null, as is an
 * empty field (DATA-FORMAT.md). Records are batched so COPY gets large chunks.
 */
export function createCsvToCopyText(headers: readonly string[]): Transform {
  let positions: number[] | undefined;
  let chunk = "";
  return new Transform({
    writableObjectMode: true,
    transform(record: string[], _encoding: BufferEncoding, callback: TransformCallback) {
      if (positions === undefined) {
        positions = headers.map((header) => record.indexOf(header));
        callback();
        return;
      }
      let line = "";
      for (let i = 0; i < positions.length; i++) {
        const position = positions[i] as number;
        const value = position < 0 ? undefined : record[position];
        if (i > 0) line += "\t";
        line += value === undefined || value === "" ? "\\N" : copyEscape(value);
      }
      chunk += `${line}\n`;
      if (chunk.length >= CHUNK_CHARS) {
        this.push(chunk);
        chunk = "";
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (chunk.length > 0) this.push(chunk);
      callback();
    },
  });
}

const SPECIAL = /[\\\t\n\r]/;

/** COPY text format: backslash, tab, newline and carriage return are escaped with a backslash. */
function copyEscape(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}
