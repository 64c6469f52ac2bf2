import type { Client } from "pg";
import { DATASET_FILES, type DatasetFile } from "./dataset-files.js";
import { ImportError } from "./import-errors.js";
import { specOf } from "./row-checks.js";
import { stagingTable } from "./staging.js";

/**
 * Writes a file's accepted rows into its table: an upsert by id, counting inserted
 * and updated rows (`xmax = 0` tells a fresh row from one that ON CONFLICT updated).
 * An update sets the columns the file has: a file without `market_cap` leaves the
 * stored market caps alone rather than wiping them.
 */
export async function upsertAccepted(
  client: Client,
  spec: DatasetFile,
  fileColumns: readonly string[],
): Promise<{ inserted: number; updated: number }> {
  const columns = spec.columns.map((column) => column.column);
  const updated = columns.filter((column) => column !== spec.key && fileColumns.includes(column));
  const updates = updated.length
    ? updated.map((column) => `${column} = excluded.${column}`)
    : [`${spec.key} = excluded.${spec.key}`];
  const result = await client.query<{ inserted: string; updated: string }>(
    `with upserted as (
       insert into ${spec.table} (${columns.join(", ")})
       select ${columns.join(", ")} from ${stagingTable(spec)} where not rejected
       on conflict (${spec.key}) do update set ${updates.join(", ")}
       returning (xmax = 0) as inserted)
     select count(*) filter (where inserted) as inserted, count(*) filter (where not inserted) as updated from upserted`,
  );
  return { inserted: Number(result.rows[0]?.inserted ?? 0), updated: Number(result.rows[0]?.updated ?? 0) };
}

/**
 * --replace: the stored rows a file does not restate are removed. Stored rows of
 * tables outside this import must not be left pointing at them (the foreign keys
 * would cascade): that stops the import instead, naming an example.
 */
export async function deleteUnstated(client: Client, spec: DatasetFile, present: ReadonlySet<string>): Promise<number> {
  const stage = stagingTable(spec);
  const unstated = `not exists (select 1 from ${stage} x where not x.rejected and x.${spec.key} = t.${spec.key})`;
  for (const child of DATASET_FILES) {
    const reference = child.references.find((r) => r.table === spec.table);
    if (!reference || present.has(child.file)) continue;
    const orphan = await client.query<{ id: string; count: string }>(
      `select min(d.${reference.column})::text as id, count(*) as count from ${child.table} d
       where exists (select 1 from ${spec.table} t where t.${spec.key} = d.${reference.column} and ${unstated})`,
    );
    const row = orphan.rows[0];
    if (row && Number(row.count) > 0) {
      throw new ImportError(
        spec.file,
        undefined,
        `--replace would remove ${reference.noun} ${row.id} (and others), to which ${row.count} stored rows of ${specOf(child.table).file} refer; import ${specOf(child.table).file} too`,
      );
    }
  }
  const result = await client.query(`delete from ${spec.table} t where ${unstated}`);
  return result.rowCount ?? 0;
}
