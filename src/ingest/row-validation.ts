import { Transform, type TransformCallback } from "node:stream";
import type { DatasetFile } from "./dataset-files.js";
import { ImportError } from "./import-errors.js";

/** A record from csv-parse with its `info` (only the count of skipped blank lines is used). */
export interface ParsedRecord {
  record: string[];
  info: { empty_lines: number };
}

/** About how many characters are handed to COPY in one chunk. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Checks every field of every record by the rules of DATA-FORMAT.md and writes the
 * records as COPY text for the staging table: the physical line where the record
 * starts, whether it is rejected, its problems as JSON ([column, value, reason]
 * each), then the normalized values. Columns are found by header name; unknown
 * headers are ignored; a missing optional column is null.
 */
export interface RowValidator extends Transform {
  /** Records read (the header not counted). */
  readonly rows: number;
  /** The physical line where the next record starts: where a CSV error is. */
  readonly nextLine: number;
  /** The table columns the file has (after its header is read). */
  readonly columns: string[];
}

export function createRowValidator(spec: DatasetFile): RowValidator {
  let positions: number[] | undefined;
  let headerLength = 0;
  let chunk = "";
  let rows = 0;
  // The physical line where the next record starts. Counted here, not taken from
  // csv-parse, which counts a CRLF inside quotes as two lines.
  let nextLine = 1;
  let emptyLinesSeen = 0;
  const transform = new Transform({
    writableObjectMode: true,
    transform({ record, info }: ParsedRecord, _encoding: BufferEncoding, callback: TransformCallback) {
      nextLine += info.empty_lines - emptyLinesSeen; // blank lines csv-parse skipped before it
      emptyLinesSeen = info.empty_lines;
      const line = nextLine;
      for (const field of record) nextLine += field.match(LINE_BREAKS)?.length ?? 0;
      nextLine++;
      if (positions === undefined) {
        try {
          positions = readHeader(spec, record);
        } catch (error) {
          callback(error as Error);
          return;
        }
        headerLength = record.length;
        callback();
        return;
      }
      rows++;
      const problems: [string, string, string][] = [];
      const values: string[] = [];
      // A row of the wrong length is rejected for that alone (its fields may be
      // shifted), but keeps what can be read: its id still names it, so rows that
      // refer to it are known to refer to a rejected row.
      const misshapen = record.length !== headerLength;
      if (misshapen) problems.push(["", "", `has ${record.length} fields where the header has ${headerLength}`]);
      for (let i = 0; i < spec.columns.length; i++) {
        const column = spec.columns[i]!;
        const position = positions[i]!;
        const text = position < 0 ? "" : (record[position] ?? "");
        const read = column.read(text);
        if ("reason" in read) {
          if (!misshapen) problems.push([column.header, text, read.reason]);
          values.push("\\N");
        } else {
          values.push(read.value === null ? "\\N" : copyEscape(read.value));
        }
      }
      const rejected = problems.length > 0;
      const tail = values.join("\t");
      chunk += `${line}\t${rejected ? "t" : "f"}\t${rejected ? copyEscape(JSON.stringify(problems)) : "\\N"}\t${tail}\n`;
      if (chunk.length >= CHUNK_CHARS) {
        this.push(chunk);
        chunk = "";
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (positions === undefined) {
        callback(new ImportError(spec.file, 1, "the file has no header row"));
        return;
      }
      if (chunk.length > 0) this.push(chunk);
      callback();
    },
  });
  return Object.defineProperties(transform, {
    rows: { get: () => rows },
    nextLine: { get: () => nextLine },
    columns: { get: () => spec.columns.filter((_, i) => (positions?.[i] ?? -1) >= 0).map((column) => column.column) },
  }) as RowValidator;
}

/** Where each column of the spec is in the records; a mandatory one must be there, once. */
function readHeader(spec: DatasetFile, rawHeader: string[]): number[] {
  // Header names are matched trimmed and in any case: `Company_ID ` is company_id.
  const header = rawHeader.map((name) => name.trim().toLowerCase());
  return spec.columns.map((column) => {
    const position = header.indexOf(column.header);
    if (position >= 0 && header.indexOf(column.header, position + 1) >= 0) {
      throw new ImportError(spec.file, 1, `${column.header}: the column appears twice`);
    }
    if (position < 0 && column.mandatory) throw new ImportError(spec.file, 1, `${column.header}: the column is missing`);
    return position;
  });
}

const LINE_BREAKS = /\r\n|\r|\n/g;
const SPECIAL = /[\\\t\n\r]/;

/** COPY text format: backslash, tab, newline and carriage return are escaped with a backslash. */
function copyEscape(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}
