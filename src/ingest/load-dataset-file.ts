import { parse } from "csv-parse";
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createCsvToCopyText } from "./csv-to-copy-text.js";
import type { DatasetFile } from "./dataset-files.js";

/** What loading one file did. */
export interface FileLoad {
  file: string;
  /** Records read from the file (the header not counted). */
  read: number;
  inserted: number;
  updated: number;
  elapsedMs: number;
}

/**
 * Loads one CSV file into its table inside the caller's transaction: the file is
 * streamed through csv-parse into a temporary staging table of text columns with
 * COPY, then upserted by id in one INSERT ... SELECT. Staging as text keeps the
 * parse cheap and leaves every type conversion to PostgreSQL, in one statement.
 */
export async function loadDatasetFile(client: Client, spec: DatasetFile, file: string): Promise<FileLoad> {
  const started = performance.now();
  const stage = `cpb_stage_${spec.table}`;
  const columns = spec.columns.map((column) => quoteIdentifier(column.column));

  await client.query(`create temp table ${stage} (${columns.map((c) => `${c} text`).join(", ")}) on commit drop`);
  const copy = client.query(copyFrom(`copy ${stage} (${columns.join(", ")}) from stdin`));
  await pipeline(
    createReadStream(file),
    // DATA-FORMAT.md: UTF-8 with an optional BOM, RFC 4180 quoting, header row.
    parse({ bom: true, skip_empty_lines: true }),
    createCsvToCopyText(spec.columns.map((column) => column.header)),
    copy,
  );

  const result = await client.query<{ inserted: string; updated: string }>(upsertSql(spec, stage));
  const counts = result.rows[0];
  return {
    file: spec.file,
    read: copy.rowCount,
    inserted: Number(counts?.inserted ?? 0),
    updated: Number(counts?.updated ?? 0),
    elapsedMs: Math.round(performance.now() - started),
  };
}

/**
 * `xmax = 0` tells a freshly inserted row from one that ON CONFLICT updated: an
 * updated row version carries the updating transaction's id in xmax.
 */
function upsertSql(spec: DatasetFile, stage: string): string {
  const key = quoteIdentifier(spec.key);
  const targets = spec.columns.map((column) => quoteIdentifier(column.column));
  const values = spec.columns.map((column) => column.convert(quoteIdentifier(column.column)));
  const updates = targets.filter((target) => target !== key).map((target) => `${target} = excluded.${target}`);
  return `
    with upserted as (
      insert into ${spec.table} (${targets.join(", ")})
      select ${values.join(", ")} from ${stage}
      on conflict (${key}) do update set ${updates.join(", ")}
      returning (xmax = 0) as inserted
    )
    select count(*) filter (where inserted) as inserted, count(*) filter (where not inserted) as updated
    from upserted`;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
