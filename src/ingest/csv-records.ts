import { parse as exactParser, type Info } from "csv-parse";
import Papa from "papaparse";
import { Transform, type TransformCallback } from "node:stream";

/** A CSV record and the physical line where it starts (the header is line 1). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** Text in, batches of records (CsvRecord[]) out. */
export interface CsvRecordReader extends Transform {
  /** The physical line where the next record starts: where a CSV error is. */
  readonly nextLine: number;
  /** The line from which csv-parse read the file, if papaparse's reading could not be vouched for. */
  readonly exactFromLine: number | undefined;
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const LINE_BREAKS = /\r\n|\r|\n/g;
const NEEDS_QUOTES = /["\r\n,]/;

/**
 * Reads decoded CSV text into records (DATA-FORMAT.md: RFC 4180, a BOM allowed,
 * blank lines skipped), each with its physical line, in batches (one stream write
 * per record would cost more than reading it).
 *
 * csv-parse decides what the format accepts, but it reads about 17 MB/s here;
 * papaparse reads over 100 MB/s and is lenient where csv-parse is strict (a quote
 * inside an unquoted field, spaces after a closing quote). So papaparse reads first,
 * and a record is taken from it only when its text is exactly the RFC 4180 encoding
 * of the fields papaparse found, which csv-parse reads as the same fields. At the
 * first record that is not, csv-parse takes over from that record's start to the end
 * of the file, with its own errors. Both roads give the same records and lines
 * (test/ingest/csv-records.test.ts compares them).
 *
 * `midFile` starts the reading at a record of a file whose first line ended in "\n":
 * where the byte road (plain-lines.ts) hands over, at physical line `line`.
 */
export function createCsvRecordReader(midFile?: { line: number }): CsvRecordReader {
  let pending = "";
  let started = midFile !== undefined;
  let delimiter: string | undefined = midFile && "\n";
  let line = midFile?.line ?? 1;
  let exact: Transform | undefined;
  let batch: CsvRecord[] = [];
  let exactFromLine: number | undefined;

  const reader = new Transform({
    writableObjectMode: false,
    readableObjectMode: true,
    decodeStrings: false,
    transform(chunk: string, _encoding: BufferEncoding, callback: TransformCallback) {
      if (exact) {
        exact.write(chunk, () => done(callback));
        return;
      }
      pending += chunk;
      readPending(false, callback);
    },
    flush(callback: TransformCallback) {
      if (!exact) return readPending(true, callback);
      endExact(callback);
    },
  });

  function emit(fields: string[], quoted: boolean): void {
    batch.push({ fields, line });
    if (quoted) for (const field of fields) line += field.match(LINE_BREAKS)?.length ?? 0;
    line++;
  }

  function done(callback: TransformCallback): void {
    if (batch.length > 0) reader.push(batch);
    batch = [];
    callback();
  }

  function readPending(final: boolean, callback: TransformCallback): void {
    if (!started) {
      if (pending.length === 0 && !final) return callback();
      if (pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
      started = true;
    }
    delimiter ??= recordDelimiter(pending, final);
    if (delimiter === undefined) return done(callback); // the first line is not whole yet
    if (delimiter === "") return handOver(0, final, callback);
    const read = readRecords(pending, delimiter, final);
    if (read < 0 || (final && read < pending.length)) return handOver(read < 0 ? -read - 1 : read, final, callback);
    pending = pending.slice(read);
    done(callback);
  }

  /** csv-parse reads the rest of the file, from `offset` of `pending` (where a record starts). */
  function handOver(offset: number, final: boolean, callback: TransformCallback): void {
    const rest = pending.slice(offset);
    pending = "";
    exactFromLine = line;
    let emptyLinesSeen = 0;
    // csv-parse keeps the record delimiter of the file's first line, as the fast road did.
    const known = delimiter ? { record_delimiter: delimiter } : {};
    exact = exactParser({ relax_column_count: true, skip_empty_lines: true, info: true, ...known });
    exact.on("data", ({ record, info }: { record: string[]; info: Info }) => {
      line += info.empty_lines - emptyLinesSeen;
      emptyLinesSeen = info.empty_lines;
      emit(record, true);
    });
    exact.on("error", (error: Error & { empty_lines?: number }) => {
      // The broken record starts after the blank lines skipped before it.
      line += (error.empty_lines ?? emptyLinesSeen) - emptyLinesSeen;
      reader.destroy(error);
    });
    const next = () => (final ? endExact(callback) : done(callback));
    if (rest.length === 0) next();
    else exact.write(rest, next);
  }

  function endExact(callback: TransformCallback): void {
    exact!.once("end", () => done(callback));
    exact!.end();
  }

  /**
   * Emits the records at the start of `text` that papaparse reads and their RFC 4180
   * encoding confirms. The last one may go on in the next chunk, so it stays unread
   * unless `final`. Returns the length read, or -(offset + 1) to hand over at offset.
   */
  function readRecords(text: string, delimiter: string, final: boolean): number {
    // papaparse drops a BOM at the start of what it reads; here that would be data.
    if (text.charCodeAt(0) === 0xfeff) return -1;
    const rows = Papa.parse<string[]>(text, {
      delimiter: ",",
      newline: delimiter as "\n",
      quoteChar: '"',
      escapeChar: '"',
    }).data;
    const whole = final ? rows.length : rows.length - 1;
    const marks = new SpecialMarks(text);
    let start = 0;
    for (let i = 0; i < whole; i++) {
      // After the file's last line break, papaparse reads one more, empty, record.
      if (start === text.length) break;
      const fields = rows[i]!;
      const plainLength = fields.reduce((length, field) => length + field.length, fields.length - 1);
      // A quoted field's opening quote is within the length the fields would take unquoted.
      const quoted = marks.quoteBefore(start, start + plainLength + 1);
      const end = quoted
        ? quotedEnd(text, start, fields, delimiter)
        : plainEnd(text, start, start + plainLength, delimiter, marks);
      if (end < 0) return -start - 1;
      if (!quoted && plainLength === 0 && fields.length === 1)
        line++; // a blank line, which csv-parse skips
      else emit(fields, quoted);
      start = end;
    }
    return start;
  }

  return Object.defineProperties(reader, {
    nextLine: { get: () => line },
    exactFromLine: { get: () => exactFromLine },
  }) as CsvRecordReader;
}

/** Where the next quote and line breaks are in a text, each found once for many records. */
class SpecialMarks {
  private readonly next = { '"': -1, "\r": -1, "\n": -1 };
  constructor(private readonly text: string) {}

  /** Whether a quote is at or after `from` and before `to`. */
  quoteBefore(from: number, to: number): boolean {
    return this.nextAt('"', from) < to;
  }

  /** Whether a line break is at or after `from` and before `to`. */
  lineBreakBefore(from: number, to: number): boolean {
    return this.nextAt("\r", from) < to || this.nextAt("\n", from) < to;
  }

  private nextAt(what: '"' | "\r" | "\n", from: number): number {
    if (this.next[what] < from) {
      const at = this.text.indexOf(what, from);
      this.next[what] = at < 0 ? Infinity : at;
    }
    return this.next[what];
  }
}

/** Where a record without quotes whose fields end at `at` ends, delimiter included, if no line break is inside; -1 otherwise. */
function plainEnd(text: string, start: number, at: number, delimiter: string, marks: SpecialMarks): number {
  if (marks.lineBreakBefore(start, at)) return -1;
  return recordEnd(text, at, delimiter);
}

/** Where a record with quotes ends, if its text is exactly `fields` in RFC 4180; -1 otherwise. */
function quotedEnd(text: string, start: number, fields: string[], delimiter: string): number {
  let at = start;
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) {
      if (text.charCodeAt(at) !== COMMA) return -1;
      at++;
    }
    const field = fields[i]!;
    if (text.charCodeAt(at) === QUOTE) {
      const quoted = `"${field.replaceAll('"', '""')}"`;
      if (!text.startsWith(quoted, at)) return -1;
      at += quoted.length;
    } else {
      if (NEEDS_QUOTES.test(field) || !text.startsWith(field, at)) return -1;
      at += field.length;
    }
  }
  return recordEnd(text, at, delimiter);
}

/** A record's fields end at `at`: then the text ends, or the delimiter follows. */
function recordEnd(text: string, at: number, delimiter: string): number {
  if (at === text.length) return at;
  return text.startsWith(delimiter, at) ? at + delimiter.length : -1;
}

/**
 * The record delimiter, from the first line (csv-parse takes the first it meets):
 * undefined while the first line is incomplete, "" when the first line holds a quote
 * (a quoted header: the exact road reads the file).
 */
function recordDelimiter(text: string, final: boolean): string | undefined {
  const cr = text.indexOf("\r");
  const lf = text.indexOf("\n");
  const at = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
  if (at < 0) return final ? "\n" : undefined;
  if (text.lastIndexOf('"', at) >= 0) return "";
  if (text[at] === "\n") return "\n";
  if (at + 1 === text.length && !final) return undefined;
  return text[at + 1] === "\n" ? "\r\n" : "\r";
}
