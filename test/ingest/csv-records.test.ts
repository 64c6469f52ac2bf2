import { parse, type Info } from "csv-parse";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import t from "tap";
import { createCsvRecordReader, type CsvRecord } from "../../src/ingest/csv-records.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";

interface Outcome {
  /** Where csv-parse took over (not compared: csv-parse alone reads from line 1). */
  exactFromLine?: number;
  /** The records, when the text reads to its end (a broken file stops the import: what came before it is moot). */
  records: CsvRecord[];
  /** The error message, and the line the broken record starts on. */
  error?: { message: string; line: number };
}

/** csv-parse's messages count lines its own way (the import drops that part and names the line itself). */
function withoutLine(message: string): string {
  return message.replace(/ at line \d+/, "");
}

/** What csv-parse alone reads (the exact road from the first byte), with physical lines counted the same way. */
async function exactly(text: string): Promise<Outcome> {
  const records: CsvRecord[] = [];
  let line = 1;
  let emptyLinesSeen = 0;
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  return new Promise((resolve) => {
    parser.on("data", ({ record, info }: { record: string[]; info: Info }) => {
      line += info.empty_lines - emptyLinesSeen;
      emptyLinesSeen = info.empty_lines;
      records.push({ fields: record, line });
      for (const field of record) line += field.match(/\r\n|\r|\n/g)?.length ?? 0;
      line++;
    });
    parser.on("error", (error: Error & { empty_lines: number }) => {
      resolve({
        records: [],
        error: { message: withoutLine(error.message), line: line + error.empty_lines - emptyLinesSeen },
      });
    });
    parser.on("end", () => resolve({ records }));
    parser.end(text);
  });
}

/** What the reader reads when the text arrives in the given pieces. */
async function read(pieces: string[]): Promise<Outcome> {
  const records: CsvRecord[] = [];
  const reader = createCsvRecordReader();
  try {
    await pipeline(
      Readable.from(pieces, { objectMode: false }),
      reader,
      new Writable({
        objectMode: true,
        write(batch: CsvRecord[], _encoding, callback) {
          records.push(...batch);
          callback();
        },
      }),
    );
    return { records, exactFromLine: reader.exactFromLine };
  } catch (error) {
    return { records: [], error: { message: withoutLine((error as Error).message), line: reader.nextLine } };
  }
}

/** Field text: mostly plain, sometimes with every character RFC 4180 makes special. */
function fieldValue(random: SeededRandom): string {
  const plain = ["", "a", "Acme", "42", "1234.56", " ", "é", "x y"];
  const special = [",", '"', "\n", "\r\n", "\r", "\uFEFF"];
  let value = "";
  const length = random.int(4);
  for (let i = 0; i < length; i++) value += random.pick(random.chance(0.15) ? special : plain);
  return value;
}

/** A CSV text: well formed records in one delimiter, then perhaps damaged the way real files are. */
function csvText(random: SeededRandom): string {
  const delimiter = random.pick(["\n", "\r\n", "\r"]);
  const columns = 1 + random.int(4);
  const lines: string[] = [];
  const records = random.int(8);
  for (let r = 0; r < records; r++) {
    if (random.chance(0.1)) {
      lines.push("");
      continue;
    }
    const width = random.chance(0.15) ? Math.max(1, columns + random.pick([-1, 1])) : columns;
    const fields: string[] = [];
    for (let c = 0; c < width; c++) {
      const value = fieldValue(random);
      const mustQuote = /["\r\n,]/.test(value);
      fields.push(mustQuote || random.chance(0.2) ? `"${value.replaceAll('"', '""')}"` : value);
    }
    lines.push(fields.join(","));
  }
  let text = (random.chance(0.2) ? "\uFEFF" : "") + lines.join(delimiter) + (random.chance(0.7) ? delimiter : "");
  const damages = random.chance(0.5) ? random.int(3) : 0;
  for (let d = 0; d < damages; d++) {
    const at = random.int(text.length + 1);
    text = text.slice(0, at) + random.pick(['"', "\r", "\n", " ", ",", '" ', "\r\n"]) + text.slice(at);
  }
  return text;
}

/** The text cut at random places: inside quotes, between CR and LF, anywhere. */
function pieces(random: SeededRandom, text: string): string[] {
  const cuts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const length = 1 + random.int(Math.max(1, text.length / 2));
    cuts.push(text.slice(at, at + length));
    at += length;
  }
  return cuts;
}

t.test("the reader gives what csv-parse alone gives, records, lines and errors, however the text is cut", async (t) => {
  const runs = Number(process.env.CSV_RECORDS_RUNS ?? 5_000);
  let fellBack = 0;
  let broken = 0;
  for (let seed = 1; seed <= runs; seed++) {
    const random = createSeededRandom(`csv ${seed}`);
    const text = csvText(random);
    const expected = await exactly(text);
    const { exactFromLine, ...actual } = await read(pieces(random, text));
    if (expected.error) broken++;
    if (exactFromLine !== undefined) fellBack++;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      t.same(actual, expected, `seed ${seed}: ${JSON.stringify(text)}`);
      return;
    }
  }
  t.pass(`${runs} texts read alike (${broken} of them broken; csv-parse read ${fellBack} of them in part)`);
  t.ok(fellBack > runs / 10 && fellBack < runs - runs / 10, "both roads were taken often");
});

t.test("a large well-formed text is read by papaparse whole, in any cut", async (t) => {
  const rows = Array.from(
    { length: 5_000 },
    (_, i) => `${i + 1},"Name ${i}, Inc.",${i % 7 === 0 ? "" : i * 3.5},2026-01-01`,
  );
  const text = ["id,name,amount,date", ...rows].join("\r\n") + "\r\n";
  const expected = await exactly(text);
  for (const size of [1, 7, 4096, 65_536]) {
    const cut: string[] = [];
    for (let at = 0; at < text.length; at += size) cut.push(text.slice(at, at + size));
    const { exactFromLine, ...outcome } = await read(cut);
    t.same(outcome, expected, `in pieces of ${size}`);
    t.equal(exactFromLine, undefined, "csv-parse was not needed");
  }
  // A bare CR in a CRLF file is data to csv-parse, and papaparse cannot vouch for it.
  const damaged = text.replace("\r\n4001,", "\r\r\n4001,");
  const { exactFromLine, ...outcome } = await read([damaged]);
  t.equal(exactFromLine, 4001, "csv-parse reads from that record on");
  t.same(outcome, await exactly(damaged));
});

t.test("a broken record names its own line, after blank lines and multi-line fields", async (t) => {
  const text = 'a,b\n"1\n2",x\n\n\n"x"y,z\n';
  const outcome = await read([text]);
  t.equal(outcome.error?.line, 6);
  t.match(outcome.error?.message, /Invalid Closing Quote/);
  t.same({ ...outcome, exactFromLine: undefined }, await exactly(text));
});
