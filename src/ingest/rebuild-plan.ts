import type { Client } from "pg";
import type { DatasetFile } from "./dataset-files.js";

/**
 * Row by row, a merge costs about 19 µs per row at Advisen scale (an index insertion
 * per index, a foreign-key trigger per reference); building a table beside the stored
 * one costs about 2.4 µs per row of the whole new table (a bulk insert, a sort per
 * index, one join per reference). So a table is rebuilt once the file's rows reach
 * an eighth of what is stored.
 */
const REBUILD_FROM_SHARE = 1 / 8;

/**
 * Whether a file's accepted rows are better written by rebuilding its table than by
 * merging them row by row: for --replace, a first load, or a file large against what
 * is stored.
 */
export function worthRebuilding(replace: boolean, accepted: number, stored: number): boolean {
  return replace || accepted >= stored * REBUILD_FROM_SHARE;
}

/**
 * The present files whose tables this import replaces with tables built beside them,
 * each with how many rows the table holds now; the others are merged row by row.
 * A table is replaced when `wanted` says so for its file, and only when every table
 * that refers to it is replaced too or is empty (the references of a kept table would
 * otherwise have to be checked again, holding it exclusively).
 */
export async function chooseReplacements(
  client: Client,
  present: readonly DatasetFile[],
  wanted: (file: number, stored: number) => boolean,
): Promise<Map<string, number>> {
  const chosen = new Map<string, number>();
  // Children first: a table's choice depends on the choices of the tables referring to it.
  for (let i = present.length - 1; i >= 0; i--) {
    const spec = present[i]!;
    const stored = await countRows(client, spec.table);
    if (!wanted(i, stored)) continue;
    if (await allReferrersReplacedOrEmpty(client, spec.table, chosen)) chosen.set(spec.table, stored);
  }
  return chosen;
}

async function countRows(client: Client, table: string): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
  return Number(rows[0]?.n ?? 0);
}

async function allReferrersReplacedOrEmpty(
  client: Client,
  table: string,
  chosen: ReadonlyMap<string, number>,
): Promise<boolean> {
  const { rows } = await client.query<{ referrer: string }>(
    `select distinct conrelid::regclass::text as referrer from pg_constraint
      where contype = 'f' and confrelid = $1::regclass and conrelid <> confrelid`,
    [table],
  );
  for (const { referrer } of rows) {
    if (chosen.has(referrer)) continue;
    const { rows: any } = await client.query(`select 1 from ${referrer} limit 1`);
    if (any.length > 0) return false;
  }
  return true;
}
