import { CsvError } from "csv-parse";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { DatasetFile } from "./dataset-files.js";
import { DirectLoadDeclined, ImportError } from "./import-errors.js";
import { createCopyTextReader } from "./plain-lines.js";
import type { ValidatorOptions } from "./row-validation.js";
import { InvalidUtf8Error } from "./utf8-decoder.js";

/** The staging table of a file: its rows as read, checked, with their line numbers. */
export function stagingTable(spec: DatasetFile): string {
  return `cpb_stage_${spec.table}`;
}

/** Every problem found, of every file, in report order; survives until the transaction ends. */
export const REJECTS_TABLE = "cpb_rejects";

export async function createRejectsTable(client: Client): Promise<void> {
  await client.query(`create temp table ${REJECTS_TABLE} (
    file_rank integer not null, file text not null, line integer not null, seq bigserial,
    column_name text not null, value text not null, reason text not null) on commit drop`);
}

/** Progress of reading one file, in bytes. */
export type ProgressListener = (bytesRead: number, bytesTotal: number) => void;

/**
 * Streams one CSV file into its staging table (writeCopyText), then records the problems
 * of the rows refused by their fields. Returns the number of records read and the
 * columns the file has.
 */
export async function stageFile(
  client: Client,
  spec: DatasetFile,
  path: string,
  rank: number,
  onProgress?: ProgressListener,
): Promise<{ rows: number; columns: string[] }> {
  const stage = stagingTable(spec);
  const columns = spec.columns.map((column) => `${column.column} ${column.sqlType}`);
  await client.query(
    `create temp table ${stage} (line integer not null, rejected boolean not null, problems jsonb, ${columns.join(", ")}) on commit drop`,
  );
  const copy = client.query(
    copyFrom(`copy ${stage} (line, rejected, problems, ${spec.columns.map((c) => c.column).join(", ")}) from stdin`),
  );
  const read = await writeCopyText(spec, path, copy, {}, onProgress);
  await client.query(
    `insert into ${REJECTS_TABLE} (file_rank, file, line, column_name, value, reason)
     select $1, $2, s.line, p->>0, p->>1, p->>2
     from ${stage} s, jsonb_array_elements(s.problems) p where s.problems is not null order by s.line`,
    [rank, spec.file],
  );
  await client.query(`analyze ${stage}`);
  return read;
}

/**
 * Turns one CSV file into COPY text, its fields checked on the way, written to `sink`
 * (a COPY FROM STDIN), streamed so memory stays flat whatever the size. Returns the
 * records read and the columns the file has.
 */
export async function writeCopyText(
  spec: DatasetFile,
  path: string,
  sink: Writable,
  options: ValidatorOptions & { signal?: AbortSignal },
  onProgress?: ProgressListener,
): Promise<{ rows: number; columns: string[] }> {
  const total = (await stat(path)).size;
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      read += chunk.length;
      onProgress?.(read, total);
      callback(null, chunk);
    },
  });
  // DATA-FORMAT.md: UTF-8 with an optional BOM, RFC 4180 quoting, a header row.
  const copyText = createCopyTextReader(spec, options);
  try {
    await pipeline(createReadStream(path), counter, copyText, sink, { signal: options.signal });
  } catch (error) {
    throw asImportError(spec, error, copyText.nextLine);
  }
  return { rows: copyText.rows, columns: copyText.columns };
}

/**
 * A file that cannot be read as CSV at all stops the import; the message names the
 * file and the physical line where the broken record starts (csv-parse's own count
 * takes a CRLF inside quotes for two lines).
 */
function asImportError(spec: DatasetFile, error: unknown, line: number): Error {
  if (error instanceof ImportError || error instanceof DirectLoadDeclined) return error;
  if (error instanceof InvalidUtf8Error) return new ImportError(spec.file, error.line, error.message);
  if (error instanceof CsvError) {
    return new ImportError(
      spec.file,
      line,
      `not valid CSV: ${error.message.replace(/^.*?:\s*/, "").replace(/ at line \d+/, "")}`,
    );
  }
  return error as Error;
}
