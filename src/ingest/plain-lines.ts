import { isUtf8 } from "node:buffer";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createCsvRecordReader, type CsvRecordReader } from "./csv-records.js";
import type { DatasetFile } from "./dataset-files.js";
import { AS_IS, NULL } from "./field-readers.js";
import { CopyLines, createRowValidator, type ValidatorOptions } from "./row-validation.js";
import { createUtf8Decoder } from "./utf8-decoder.js";

/** CSV bytes in, COPY text out; what it read, for the report and for errors. */
export interface CopyTextReader extends Transform {
  /** Records read (the header not counted). */
  readonly rows: number;
  /** The table columns the file has (after its header is read). */
  readonly columns: string[];
  /** The physical line where the next record starts: where a CSV error is. */
  readonly nextLine: number;
  /** The line from which the string road read the file, if the bytes were not plain all through. */
  readonly stringRoadFromLine: number | undefined;
}

const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const QUOTE = 0x22;
const COMMA = 0x2c;
const ZERO = 0x30;
const NULL_VALUE = Buffer.from("\\N");
/** A staging line's columns after its line number: not rejected, no problems. */
const ACCEPTED = Buffer.from("\tf\t\\N");

/**
 * Reads a CSV file's bytes into COPY text by the rules of DATA-FORMAT.md, as the
 * string road (the UTF-8 decoder, csv-records.ts, createRowValidator) does, without
 * its strings where a file is plain. Most data files are: no quotes, no carriage
 * returns, numbers and dates already as PostgreSQL prints them. There a record is a
 * line and its fields lie between commas, so the byte road checks each field's bytes
 * by its reader's rule (FieldReader.bytes) and copies them to the COPY text as they
 * are. A record that a rule cannot vouch for (a refusal, a value to rewrite, a text to
 * escape, a wrong number of fields) is read by the readers themselves (CopyLines.line)
 * from its own text. papaparse, a string per field and most of the garbage collection
 * go: programs.csv at Advisen scale (4M rows) took about 6.5 CPU-seconds of Node on
 * the string road (measured in docs/importing.md).
 *
 * Fields in quotes are read too, when a record is one line and its quoting is exactly
 * RFC 4180. Elsewhere (a quote out of place, a line break in quotes, a carriage return
 * or bytes that are not UTF-8 in the lines read at once, or a BOM, a blank line or a
 * quote in the header), the string road reads the rest of the file, from that line:
 * the same records, lines and errors either way (test/ingest/plain-lines.test.ts).
 */
export function createCopyTextReader(spec: DatasetFile, options: ValidatorOptions = {}): CopyTextReader {
  const lines = new CopyLines(spec, options);
  const rules = spec.columns.map((column) => column.read.bytes);
  let pending: Buffer = Buffer.alloc(0);
  let line = 1;
  let stringRoad: { decoder: Transform; reader: CsvRecordReader; done: Promise<void>; fromLine: number } | undefined;
  const fields = new LineFields();

  const stream = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      let rest: Buffer | undefined = chunk;
      if (!stringRoad) {
        try {
          rest = readBytes(pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk, false);
        } catch (error) {
          callback(error as Error);
          return;
        }
      }
      // The string road's errors come by `done` (the first one, the one that stopped it).
      if (rest) stringRoad!.decoder.write(rest, () => callback());
      else callback();
    },
    flush(callback: TransformCallback) {
      let rest: Buffer | undefined;
      if (!stringRoad) {
        try {
          rest = readBytes(pending, true);
        } catch (error) {
          callback(error as Error);
          return;
        }
      }
      if (!stringRoad) return callback();
      stringRoad.decoder.end(rest);
      stringRoad.done.then(() => callback(), callback);
    },
  });

  /**
   * Reads the whole lines of `bytes` (all of them when `final`), keeping the rest as
   * pending; or hands over to the string road, and returns the bytes it is to read.
   */
  function readBytes(bytes: Buffer, final: boolean): Buffer | undefined {
    if (lines.positions === undefined) {
      const lf = bytes.indexOf(LF);
      if (lf < 0 && !final) {
        pending = bytes;
        return undefined;
      }
      const header = bytes.subarray(0, lf < 0 ? bytes.length : lf);
      // A BOM, a blank first line (the header comes later), quotes or a header without
      // a line break are the string road's to read.
      if (lf <= 0 || header[0] === 0xef || header.indexOf(QUOTE) >= 0 || !isPlain(header)) return handOver(bytes);
      lines.header(header.toString("utf8").split(","));
      line = 2;
      bytes = bytes.subarray(lf + 1);
    }
    const end = final ? bytes.length : bytes.lastIndexOf(LF) + 1;
    const whole = bytes.subarray(0, end);
    if (!isPlain(whole)) return handOver(bytes);
    const out = new CopyBytes(end + (end >> 2) + 4096); // about the CSV's size: a staging prefix and nulls grow it
    const stop = copyText(whole, out);
    if (out.at > 0) stream.push(out.take());
    if (stop < end) return handOver(bytes.subarray(stop));
    pending = bytes.subarray(end);
    return undefined;
  }

  /** The string road takes over from the first line of `bytes`, which it is to read. */
  function handOver(bytes: Buffer): Buffer {
    const decoder = createUtf8Decoder(line);
    const reader = createCsvRecordReader(lines.positions ? { line } : undefined);
    const validator = createRowValidator(spec, options, lines);
    validator.on("data", (text: string) => stream.push(text));
    const done = pipeline(decoder, reader, validator);
    done.catch((error: unknown) => stream.destroy(error as Error));
    stringRoad = { decoder, reader, done, fromLine: line };
    pending = Buffer.alloc(0);
    return bytes;
  }

  /**
   * Writes the COPY text of whole lines (the last may lack its line break at the end of
   * the file) until a line the byte road does not read; returns where that line starts
   * (the length of `bytes` when there is none).
   */
  function copyText(bytes: Buffer, out: CopyBytes): number {
    let start = 0;
    while (start < bytes.length) {
      const end = splitLine(bytes, start);
      if (end < 0) return start;
      // A blank line is skipped, as csv-parse skips it.
      if (end > start && !(fields.count === lines.headerLength && !fields.escaped && copyFields(bytes, out)))
        out.text(lines.line(fieldTexts(bytes), line));
      line++;
      start = end + 1;
    }
    return bytes.length;
  }

  /**
   * Finds the fields of the line at `start` (RFC 4180: a field in quotes may hold
   * commas and doubled quotes) and returns where it ends (its line break, or the end of
   * the bytes), or -1 for a line the string road is to read: a quote inside a field
   * without quotes, anything but a comma after a closing quote, a line break in quotes.
   */
  function splitLine(bytes: Buffer, start: number): number {
    const length = bytes.length;
    let at = start;
    let count = 0;
    fields.escaped = false;
    for (;;) {
      if (count === fields.starts.length) fields.grow();
      if (bytes[at] === QUOTE) {
        let close = at + 1;
        for (;;) {
          while (close < length && bytes[close] !== QUOTE && bytes[close] !== LF) close++;
          if (close === length || bytes[close] === LF) return -1;
          if (bytes[close + 1] !== QUOTE) break;
          fields.escaped = true;
          close += 2;
        }
        fields.starts[count] = at + 1;
        fields.ends[count++] = close;
        at = close + 1;
        if (at < length && bytes[at] !== LF && bytes[at] !== COMMA) return -1;
      } else {
        fields.starts[count] = at;
        // Digits, letters, points and hyphens are all above the comma: one test for most bytes.
        for (; at < length; at++) {
          const byte = bytes[at]!;
          if (byte > COMMA) continue;
          if (byte === COMMA || byte === LF) break;
          if (byte === QUOTE) return -1;
        }
        fields.ends[count++] = at;
      }
      if (at === length || bytes[at] === LF) {
        fields.count = count;
        return at;
      }
      at++; // the comma
    }
  }

  /** The fields of the line just split, as text (a quoted field's doubled quotes made one; no other field has quotes). */
  function fieldTexts(bytes: Buffer): string[] {
    const texts: string[] = [];
    for (let f = 0; f < fields.count; f++) {
      const text = bytes.toString("utf8", fields.starts[f], fields.ends[f]);
      texts.push(fields.escaped ? text.replaceAll('""', '"') : text);
    }
    return texts;
  }

  /** Writes the line's fields as they are when every rule vouches for its field; false (nothing written) otherwise. */
  function copyFields(bytes: Buffer, out: CopyBytes): boolean {
    const positions = lines.positions!;
    const { starts, ends } = fields;
    out.room(ends[fields.count - 1]! - starts[0]! + 3 * rules.length + 32);
    const mark = out.at;
    const direct = lines.options.direct === true;
    if (!direct) {
      out.digits(line);
      out.bytes(ACCEPTED);
    }
    for (let c = 0; c < rules.length; c++) {
      if (!direct || c > 0) out.byte(TAB);
      const position = positions[c]!;
      // A column the file lacks is optional (the header says so): null.
      if (position < 0) {
        out.bytes(NULL_VALUE);
        continue;
      }
      const start = starts[position]!;
      const end = ends[position]!;
      const verdict = rules[c]!(bytes, start, end);
      if (verdict === AS_IS) out.copy(bytes, start, end);
      else if (verdict === NULL) out.bytes(NULL_VALUE);
      else {
        out.at = mark;
        return false;
      }
    }
    out.byte(LF);
    lines.rows++;
    return true;
  }

  return Object.defineProperties(stream, {
    rows: { get: () => lines.rows },
    columns: { get: () => lines.columns },
    nextLine: { get: () => stringRoad?.reader.nextLine ?? line },
    stringRoadFromLine: { get: () => stringRoad?.fromLine },
  }) as CopyTextReader;
}

/** Whether bytes hold no carriage return (a record delimiter of another file, or data in quotes), and are UTF-8. */
function isPlain(bytes: Buffer): boolean {
  return bytes.indexOf(CR) < 0 && isUtf8(bytes);
}

/** Where the fields of the line being read are: field f's text is [starts[f], ends[f]) (inside its quotes). */
class LineFields {
  starts = new Int32Array(32);
  ends = new Int32Array(32);
  count = 0;
  /** Whether a quoted field holds a doubled quote (its text is not its bytes). */
  escaped = false;

  grow(): void {
    const [starts, ends] = [new Int32Array(this.starts.length * 2), new Int32Array(this.ends.length * 2)];
    starts.set(this.starts);
    ends.set(this.ends);
    [this.starts, this.ends] = [starts, ends];
  }
}

/** COPY text being written as bytes, grown as needed. */
class CopyBytes {
  at = 0;
  private buffer: Buffer;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** Makes room for `size` more bytes. */
  room(size: number): void {
    if (this.at + size <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + size));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  byte(value: number): void {
    this.buffer[this.at++] = value;
  }

  bytes(value: Buffer): void {
    this.copy(value, 0, value.length);
  }

  /**
   * Bytes copied one by one: most fields are a few bytes, and Buffer.copy's native call
   * per field cost more than the loop (0.9 of the programs' 5.5 CPU-seconds).
   */
  copy(from: Buffer, start: number, end: number): void {
    const { buffer } = this;
    let at = this.at;
    for (let i = start; i < end; i++) buffer[at++] = from[i]!;
    this.at = at;
  }

  /** A positive whole number's decimal digits. */
  digits(value: number): void {
    let length = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) length++;
    for (let i = length - 1, rest = value; i >= 0; i--, rest = Math.floor(rest / 10))
      this.buffer[this.at + i] = ZERO + (rest % 10);
    this.at += length;
  }

  text(value: string): void {
    this.room(value.length * 3);
    this.at += this.buffer.write(value, this.at);
  }

  take(): Buffer {
    return this.buffer.subarray(0, this.at);
  }
}
