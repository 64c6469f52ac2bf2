import { Transform, type TransformCallback } from "node:stream";
import type { CsvRecord } from "./csv-records.js";
import type { DatasetFile } from "./dataset-files.js";
import { DirectLoadDeclined, ImportError } from "./import-errors.js";

/** About how many characters are handed to COPY in one chunk. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Checks every field of every record by the rules of DATA-FORMAT.md and writes the
 * records as COPY text for the staging table: the physical line where the record
 * starts, whether it is rejected, its problems as JSON ([column, value, reason]
 * each), then the normalized values. Columns are found by header name; unknown
 * headers are ignored; a missing optional column is null.
 *
 * For a direct load (direct-load.ts) the text is the values alone, for the table
 * itself, and the first refused field, or a missing column when every column is
 * required, declines the direct load instead.
 */
export interface RowValidator extends Transform {
  /** Records read (the header not counted). */
  readonly rows: number;
  /** The table columns the file has (after its header is read). */
  readonly columns: string[];
}

export interface ValidatorOptions {
  /** Values only, for the table itself; a refused field declines. */
  direct?: boolean;
  /** Decline a file without every column (a direct load over stored rows cannot keep what the file does not say). */
  everyColumn?: boolean;
}

/**
 * The COPY lines of one file's records, whichever road read them (the byte road,
 * plain-lines.ts, asks for the lines it cannot write itself): the header first, which
 * says where each column is, then a line per record.
 */
export class CopyLines {
  /** Where each column of the spec is in a record, -1 where the file lacks it; undefined before the header. */
  positions: number[] | undefined;
  /** How many fields the header has: a record of another length is misshapen. */
  headerLength = 0;
  /** Records read (the header not counted). */
  rows = 0;
  private readonly escaped: boolean[];

  constructor(
    readonly spec: DatasetFile,
    readonly options: ValidatorOptions,
  ) {
    this.escaped = spec.columns.map((column) => column.sqlType === "text");
  }

  /** The table columns the file has (after its header is read). */
  get columns(): string[] {
    return this.spec.columns.filter((_, i) => (this.positions?.[i] ?? -1) >= 0).map((column) => column.column);
  }

  header(record: string[]): void {
    this.positions = readHeader(this.spec, record);
    this.headerLength = record.length;
    if (this.options.everyColumn && this.positions.includes(-1))
      throw new DirectLoadDeclined(`${this.spec.file} lacks a column`);
  }

  /** A record's COPY line, its line break included. */
  line(record: string[], line: number): string {
    const { columns } = this.spec;
    const positions = this.positions!;
    this.rows++;
    let problems: [string, string, string][] | undefined;
    let values = "";
    // A row of the wrong length is rejected for that alone (its fields may be
    // shifted), but keeps what can be read: its id still names it, so rows that
    // refer to it are known to refer to a rejected row.
    const misshapen = record.length !== this.headerLength;
    if (misshapen) problems = [["", "", `has ${record.length} fields where the header has ${this.headerLength}`]];
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i]!;
      const position = positions[i]!;
      const text = position < 0 ? "" : (record[position] ?? "");
      const read = column.read(text);
      if (read === null) {
        values += "\t\\N";
      } else if (typeof read === "string") {
        // Only text can hold what COPY escapes; numbers, dates and codes never do.
        values += `\t${this.escaped[i] ? copyEscape(read) : read}`;
      } else {
        if (!misshapen) (problems ??= []).push([column.header, text, read.reason]);
        values += "\t\\N";
      }
    }
    if (this.options.direct) {
      if (problems) throw new DirectLoadDeclined(`${this.spec.file}:${line}: a field is refused`);
      return `${values.slice(1)}\n`;
    }
    return problems ? `${line}\tt\t${copyEscape(JSON.stringify(problems))}${values}\n` : `${line}\tf\t\\N${values}\n`;
  }
}

/** Batches of records in, COPY text out, the lines written by `lines` (shared with the byte road when it hands over). */
export function createRowValidator(
  spec: DatasetFile,
  options: ValidatorOptions = {},
  lines = new CopyLines(spec, options),
): RowValidator {
  let chunk = "";
  const transform = new Transform({
    writableObjectMode: true,
    transform(records: CsvRecord[], _encoding: BufferEncoding, callback: TransformCallback) {
      try {
        for (const { fields, line } of records) {
          if (lines.positions === undefined) lines.header(fields);
          else chunk += lines.line(fields, line);
        }
      } catch (error) {
        callback(error as Error);
        return;
      }
      if (chunk.length >= CHUNK_CHARS) {
        this.push(chunk);
        chunk = "";
      }
      callback();
    },
    flush(callback: TransformCallback) {
      if (lines.positions === undefined) {
        callback(new ImportError(spec.file, 1, "the file has no header row"));
        return;
      }
      if (chunk.length > 0) this.push(chunk);
      callback();
    },
  });
  return Object.defineProperties(transform, {
    rows: { get: () => lines.rows },
    columns: { get: () => lines.columns },
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
    if (position < 0 && column.mandatory)
      throw new ImportError(spec.file, 1, `${column.header}: the column is missing`);
    return position;
  });
}

const SPECIAL = /[\\\t\n\r]/;

/** COPY text format: backslash, tab, newline and carriage return are escaped with a backslash. */
function copyEscape(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}
