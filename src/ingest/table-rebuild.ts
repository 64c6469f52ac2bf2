import type { Client } from "pg";
import type { DatasetFile } from "./dataset-files.js";
import { SCRATCH_SCHEMA } from "./import-scratch.js";
import { stagingTable } from "./staging.js";
import {
  foreignKeyReferencing,
  indexStatementFor,
  readTableDefinition,
  type TableDefinition,
} from "./table-definition.js";

/**
 * A table's replacement, built beside it in the scratch schema with the stored
 * table's name, and its indexes' and constraints' names, waiting for the swap.
 */
export interface Replacement {
  spec: DatasetFile;
  definition: TableDefinition;
  /** The replacement, qualified: cpb_import.<table>. */
  table: string;
}

export interface RebuildCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

export interface RebuildContext {
  /** --replace: the file is the whole content of the table. */
  replace: boolean;
  /** Rows stored in the table now (0 for a first load). */
  stored: number;
  /** Rows of the file accepted by the checks. */
  accepted: number;
  /** The tables this import replaces: foreign keys to them point at their replacements. */
  replacing: ReadonlySet<string>;
}

function replacementName(table: string): string {
  return `${SCRATCH_SCHEMA}.${table}`;
}

/**
 * Builds the table a file makes, beside the stored one, from its checked staging
 * table: the accepted rows (for a restated row, a column the file lacks keeps its
 * stored value), and unless --replace the stored rows the file does not restate.
 * Built in the import's transaction, nobody sees it until the swap, and a rollback or
 * a kill leaves no trace of it.
 */
export async function buildReplacement(
  client: Client,
  spec: DatasetFile,
  fileColumns: readonly string[],
  context: RebuildContext,
): Promise<{ replacement: Replacement; counts: RebuildCounts }> {
  const replacement = await createReplacement(client, spec);
  const counts = await fill(client, spec, replacement.table, fileColumns, context);
  await completeReplacement(client, replacement);
  await referenceFrom(client, replacement, context.replacing);
  return { replacement, counts };
}

/** An empty table of the stored one's columns, checks and defaults, without its indexes, keys or references yet. */
export async function createReplacement(client: Client, spec: DatasetFile): Promise<Replacement> {
  const definition = await readTableDefinition(client, spec.table);
  const table = replacementName(spec.table);
  await client.query(`create table ${table} (like ${spec.table} including all excluding indexes)`);
  return { spec, definition, table };
}

/**
 * Gives a filled replacement the stored table's indexes and keys (a sort per index,
 * instead of an index insertion per row), and its statistics.
 */
export async function completeReplacement(client: Client, replacement: Replacement): Promise<void> {
  const { definition, table } = replacement;
  for (const index of definition.indexes) {
    await client.query(
      index.constraint
        ? `alter table ${table} add constraint ${index.name} ${index.definition}`
        : indexStatementFor(index, table),
    );
  }
  await client.query(`analyze ${table}`);
}

/**
 * Gives a replacement the stored table's foreign keys (checked once, by a join,
 * instead of a trigger per row), to the replacements of the tables `replacing` names,
 * and its grants and owner.
 */
export async function referenceFrom(
  client: Client,
  replacement: Replacement,
  replacing: ReadonlySet<string>,
): Promise<void> {
  const { definition, table } = replacement;
  for (const key of definition.foreignKeys) {
    const target = replacing.has(key.references) ? replacementName(key.references) : key.references;
    await client.query(`alter table ${table} add constraint ${key.name} ${foreignKeyReferencing(key, target)}`);
  }
  for (const grant of definition.grants) {
    await client.query(
      `grant ${grant.privilege} on table ${table} to ${grant.grantee}${grant.grantable ? " with grant option" : ""}`,
    );
  }
  const { rows } = await client.query<{ owner: string }>("select current_user as owner");
  if (rows[0]?.owner !== definition.owner)
    await client.query(`alter table ${table} owner to ${quoteIdentifier(definition.owner)}`);
}

/** How many of a replacement's rows restate a stored row (by id), as counts for the summary. */
export async function countRestated(
  client: Client,
  spec: DatasetFile,
  table: string,
  rows: number,
  stored: number,
): Promise<RebuildCounts> {
  if (stored === 0) return { inserted: rows, updated: 0, deleted: 0 };
  const { rows: found } = await client.query<{ n: string }>(
    `select count(*) as n from ${table} s where exists (select 1 from ${spec.table} old where old.${spec.key} = s.${spec.key})`,
  );
  const updated = Number(found[0]?.n ?? 0);
  return { inserted: rows - updated, updated, deleted: stored - updated };
}

async function fill(
  client: Client,
  spec: DatasetFile,
  table: string,
  fileColumns: readonly string[],
  context: RebuildContext,
): Promise<RebuildCounts> {
  const stage = stagingTable(spec);
  const columns = spec.columns.map((column) => column.column);
  if (context.stored === 0) {
    await client.query(
      `insert into ${table} (${columns.join(", ")}) select ${columns.join(", ")} from ${stage} where not rejected`,
    );
    return { inserted: context.accepted, updated: 0, deleted: 0 };
  }
  const key = spec.key;
  const values = columns.map((column) =>
    column === key || fileColumns.includes(column) ? `s.${column}` : `old.${column}`,
  );
  const kept = context.replace
    ? ""
    : `union all select ${columns.join(", ")} from ${spec.table} old
       where not exists (select 1 from ${stage} x where not x.rejected and x.${key} = old.${key})`;
  await client.query(
    `insert into ${table} (${columns.join(", ")})
     select ${values.join(", ")} from ${stage} s left join ${spec.table} old on old.${key} = s.${key} where not s.rejected
     ${kept}`,
  );
  const restated = await client.query<{ n: string }>(
    `select count(*) as n from ${stage} s where not s.rejected and exists (select 1 from ${spec.table} old where old.${key} = s.${key})`,
  );
  const updated = Number(restated.rows[0]?.n ?? 0);
  return { inserted: context.accepted - updated, updated, deleted: context.replace ? context.stored - updated : 0 };
}

function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
