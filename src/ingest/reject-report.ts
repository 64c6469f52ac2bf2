import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { Client } from "pg";
import { to as copyTo } from "pg-copy-streams";
import { REJECTS_TABLE } from "./staging.js";

/** One problem of one row. */
export interface Reject {
  file: string;
  line: number;
  column: string;
  value: string;
  reason: string;
}

/** The problems of an import: how many, and the first ones in file and line order. */
export interface RejectReport {
  total: number;
  first: Reject[];
}

const ORDER = "order by file_rank, line, seq";

export async function readRejects(client: Client, limit: number): Promise<RejectReport> {
  const total = await client.query<{ n: string }>(`select count(*) as n from ${REJECTS_TABLE}`);
  const first = await client.query<Reject>(
    `select file, line, column_name as column, value, reason from ${REJECTS_TABLE} ${ORDER} limit $1`,
    [limit],
  );
  return { total: Number(total.rows[0]?.n ?? 0), first: first.rows };
}

/** The full report as CSV (file,line,column,value,reason), streamed out of the database. */
export async function writeRejectsCsv(client: Client, path: string): Promise<void> {
  const copy = client.query(
    copyTo(
      `copy (select file, line, column_name as column, value, reason from ${REJECTS_TABLE} ${ORDER}) to stdout with (format csv, header)`,
    ),
  );
  await pipeline(copy, createWriteStream(path));
}

/** `programs.csv:18: limit "-5": must be >= 0` */
export function formatReject(reject: Reject): string {
  const where = `${reject.file}:${reject.line}`;
  return reject.column === ""
    ? `${where}: ${reject.reason}`
    : `${where}: ${reject.column} ${JSON.stringify(reject.value)}: ${reject.reason}`;
}
