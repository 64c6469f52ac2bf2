import { CsvError } from "csv-parse";
import { Readable, Writable, type Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import t from "tap";
import { createCsvRecordReader } from "../../src/ingest/csv-records.js";
import { DATASET_FILES, type ColumnSpec, type DatasetFile } from "../../src/ingest/dataset-files.js";
import { createCopyTextReader } from "../../src/ingest/plain-lines.js";
import { createRowValidator, type ValidatorOptions } from "../../src/ingest/row-validation.js";
import { createUtf8Decoder, InvalidUtf8Error } from "../../src/ingest/utf8-decoder.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";

interface Outcome {
  /** The COPY text, the records and the columns, when the file reads to its end (a broken file stops the import). */
  copyText?: string;
  rows?: number;
  columns?: string[];
  /** What stopped it; for a CSV or UTF-8 error the line the import names (other messages name their own). */
  error?: { name: string; message: string; line?: number };
}

const collect = (into: Buffer[]) =>
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      into.push(chunk);
      callback();
    },
  });

async function outcome(
  chunks: Buffer[],
  stages: Transform[],
  read: { rows: number; columns: string[]; nextLine: number },
): Promise<Outcome> {
  const out: Buffer[] = [];
  try {
    await pipeline([Readable.from(chunks, { objectMode: false }), ...stages, collect(out)]);
    return { copyText: Buffer.concat(out).toString(), rows: read.rows, columns: read.columns };
  } catch (error) {
    const { name, message } = error as Error;
    if (error instanceof InvalidUtf8Error) return { error: { name, message, line: error.line } };
    return { error: { name, message, line: error instanceof CsvError ? read.nextLine : undefined } };
  }
}

/** The string road alone, as the import read every file before the byte road. */
function stringRoad(spec: DatasetFile, options: ValidatorOptions, chunks: Buffer[]): Promise<Outcome> {
  const records = createCsvRecordReader();
  const validator = createRowValidator(spec, options);
  const read = {
    get rows() {
      return validator.rows;
    },
    get columns() {
      return validator.columns;
    },
    get nextLine() {
      return records.nextLine;
    },
  };
  return outcome(chunks, [createUtf8Decoder(), records, validator], read);
}

/** A field's text by its column's kind: mostly what the byte road copies, sometimes what only the readers can read. */
function fieldText(random: SeededRandom, column: ColumnSpec): string {
  const odd = random.chance(0.08);
  if (random.chance(0.04)) return "";
  switch (column.sqlType) {
    case "bigint":
    case "integer":
      return odd
        ? random.pick([
            "0",
            "007",
            "-5",
            "9007199254740991",
            "9007199254740992",
            "2147483648",
            "1.0",
            " 5",
            "x",
            "\u0663",
          ])
        : String(1 + random.int(random.chance(0.5) ? 50 : 2_000_000));
    case "numeric(20, 2)":
      return odd
        ? random.pick([
            "1.555",
            "01.50",
            ".5",
            "5.",
            "-0",
            "-1",
            "1e5",
            "999999999999999.99",
            "1000000000000000",
            "0.005",
          ])
        : random.pick(["0", "1000000", "143761.27", "5000", "0.5", "250000.1", String(random.int(1e9))]);
    case "date":
    case "timestamp(0)":
      return odd
        ? random.pick([
            "2023-02-29",
            "2022-13-01",
            "2022-1-01",
            "2022-12-01T10:00:00",
            "2022-12-01T24:00:00",
            "0000-01-01",
          ])
        : `20${10 + random.int(16)}-${String(1 + random.int(12)).padStart(2, "0")}-${String(1 + random.int(28)).padStart(2, "0")}`;
  }
  if (column.column === "organization_type") return odd ? random.pick(["llc", "Inc", "A", "ABCDEFGHI", "L1"]) : "LLC";
  if (column.column === "naics")
    return odd ? random.pick(["5", "5241267", "ab", "52 "]) : random.pick(["52", "5241", "524126"]);
  return odd
    ? random.pick(["a\tb", "back\\slash", "nul\u0000", " ", "café", "😀", "x,y", 'say "hi"', "two\nlines", "cr\rhere"])
    : random.pick(["P001", "Acme Corp", "Open", "Fire", "ü", "Property"]);
}

/** RFC 4180 encoding of a field: quoted when it must be (but for `badQuotes`, not always), sometimes when it need not be. */
function encoded(random: SeededRandom, field: string, badQuotes: boolean): string {
  if (badQuotes && random.chance(0.03)) return random.pick([`"${field}"x`, ` "${field}"`, `"${field}`, `${field}"`]);
  const needs = /[",\r\n]/.test(field);
  if ((needs && !(badQuotes && random.chance(0.1))) || random.chance(0.01)) return `"${field.replaceAll('"', '""')}"`;
  return field;
}

/**
 * A data file: a header of the spec's columns (shuffled, some left out, some added),
 * records, and damage now and then. A file has bytes that are not UTF-8 or broken
 * quoting, not both: either stops a road as soon as it reads that far ahead, so with
 * both the first one met depends on how far each road reads ahead.
 */
function csvFile(random: SeededRandom, spec: DatasetFile): Buffer {
  const columns = spec.columns.filter((column) => column.mandatory || !random.chance(0.15));
  if (random.chance(0.01)) columns.splice(random.int(columns.length), 1); // maybe a mandatory one
  const header = columns.map((column) => column.header);
  if (random.chance(0.2)) header.splice(random.int(header.length + 1), 0, "extra");
  if (random.chance(0.01)) header.push(header[0]!); // twice
  for (let i = header.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [header[i], header[j]] = [header[j]!, header[i]!];
  }
  if (random.chance(0.1)) header[0] = ` ${header[0]!.toUpperCase()}`;
  const plain = random.chance(0.5);
  const damage = plain ? "none" : random.pick(["none", "bytes", "quotes"]);
  const lines = [header.join(",")];
  const rows = random.int(random.chance(0.1) ? 400 : 40);
  for (let r = 0; r < rows; r++) {
    if (!plain && random.chance(0.03)) lines.push("");
    const fields = header.map((name) => {
      const column = spec.columns.find((c) => c.header === name.trim().toLowerCase());
      return column ? fieldText(random, column) : random.pick(["x", "", "1"]);
    });
    if (random.chance(0.02)) fields.push("surplus");
    if (random.chance(0.02)) fields.pop();
    const line = fields.map((field) => (plain ? field : encoded(random, field, damage === "quotes"))).join(",");
    lines.push(plain ? line.replace(/["\r]/g, "_") : line);
  }
  if (!plain && random.chance(0.05)) lines.unshift("");
  const breaks = !plain && random.chance(0.1) ? "\r\n" : "\n";
  let text = lines.join(breaks) + (random.chance(0.8) ? breaks : "");
  if (!plain && random.chance(0.05)) text = `\ufeff${text}`;
  const bytes = Buffer.from(text);
  if (damage === "bytes" && random.chance(0.2) && bytes.length > 0) bytes[random.int(bytes.length)] = 0xff;
  return bytes;
}

/** The bytes cut anywhere, a multi-byte character included. */
function cut(
  random: SeededRandom,
  bytes: Buffer,
  size = random.chance(0.3) ? 1 + random.int(16) : 1 + random.int(4096),
): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

t.test("the byte road gives what the string road gives: COPY text, rows, columns, errors and lines", async (t) => {
  const random = createSeededRandom("plain lines");
  const optionSets: ValidatorOptions[] = [{}, { direct: true }, { direct: true, everyColumn: true }];
  let plainThrough = 0;
  let handedOver = 0;
  let failed = 0;
  for (let i = 0; i < 3_000; i++) {
    const spec = random.pick(DATASET_FILES);
    const options = random.pick(optionSets);
    const bytes = csvFile(random, spec);
    const chunks = cut(random, bytes);
    let expected = await stringRoad(spec, options, chunks);
    const reader = createCopyTextReader(spec, options);
    const actual = await outcome(chunks, [reader], reader);
    // Of a file's two errors, the string road reports the one in the first chunk it
    // decodes; the byte road checks the header at once: byte by byte, the string
    // road reports that one too.
    if (actual.error && expected.error && JSON.stringify(actual) !== JSON.stringify(expected))
      expected = await stringRoad(spec, options, cut(random, bytes, 1));
    if (expected.error) failed++;
    if (reader.stringRoadFromLine === undefined) plainThrough++;
    else if (reader.stringRoadFromLine > 1) handedOver++;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      const start = JSON.stringify(bytes.subarray(0, 600).toString());
      t.same(actual, expected, `file ${i} (${spec.file}, ${JSON.stringify(options)}), starting ${start}`);
      return;
    }
  }
  t.pass(`3,000 files agree`);
  // Both roads and the hand-over between them were taken, and files that fail too.
  t.ok(plainThrough > 1_000, `${plainThrough} files read on the byte road all through`);
  t.ok(handedOver > 200, `${handedOver} files handed over after their header`);
  t.ok(failed > 100, `${failed} files stopped by an error`);
});

t.test("a plain file's rows are copied as they are, a row the rules rewrite is read by the readers", async (t) => {
  const programs = DATASET_FILES.find((spec) => spec.file === "programs.csv")!;
  const text = [
    "program_id,company_id,coverage_id,line_of_business_id,effective_date,limit,premium,retention,source",
    "1,518412,1,3,2022-12-01,10000000,143761.27,0,P001",
    "",
    "2,355014,3,10,2020-08-07,,40244.195,5000,a\\b",
    "3,355014,3,10,2020-08-07,1,2,3",
  ].join("\n");
  const reader = createCopyTextReader(programs, { direct: false });
  const out: Buffer[] = [];
  await pipeline(Readable.from([Buffer.from(text)]), reader, collect(out));
  t.equal(
    Buffer.concat(out).toString(),
    [
      "2\tf\t\\N\t1\t518412\t1\t3\t2022-12-01\t10000000\t143761.27\t0\tP001",
      "4\tf\t\\N\t2\t355014\t3\t10\t2020-08-07\t\\N\t40244.20\t5000\ta\\\\b",
      `5\tt\t[["","","has 8 fields where the header has 9"]]\t3\t355014\t3\t10\t2020-08-07\t1\t2\t3\t\\N`,
      "",
    ].join("\n"),
  );
  t.equal(reader.rows, 3);
  t.equal(reader.stringRoadFromLine, undefined, "read on the byte road all through");
});

t.test("fields in quotes are read on the byte road, doubled quotes by the readers", async (t) => {
  const companies = DATASET_FILES.find((spec) => spec.file === "companies.csv")!;
  const text = [
    "company_id,company_name,organization_type,naics",
    '1,"Acme, Inc.",LLC,52',
    '2,"Say ""Hi""",PUB,"5241"',
    '3,"Two',
    'lines",PUB,52',
  ].join("\n");
  const reader = createCopyTextReader(companies, { direct: true });
  const out: Buffer[] = [];
  await pipeline(Readable.from([Buffer.from(text)]), reader, collect(out));
  t.equal(
    Buffer.concat(out).toString(),
    [
      "1\tAcme, Inc.\tLLC\t52\t\\N\t\\N\t\\N",
      '2\tSay "Hi"\tPUB\t5241\t\\N\t\\N\t\\N',
      "3\tTwo\\nlines\tPUB\t52\t\\N\t\\N\t\\N",
      "",
    ].join("\n"),
  );
  t.equal(reader.stringRoadFromLine, 4, "a line break in quotes is the string road's");
});
