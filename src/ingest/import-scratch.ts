import type { Client } from "pg";

/** The schema where replacements are built (migration 20261124000000_import_scratch). */
export const SCRATCH_SCHEMA = "cpb_import";

/** One import at a time, on any number of processes and servers: a session advisory lock. */
const IMPORT_LOCK = 0x63_70_62_69; // "cpbi"

/**
 * Holds the import lock on this connection until it is released or the connection
 * ends (a killed import's ends with its socket), then removes what a killed import
 * left in the scratch schema: nobody else can be building there now.
 */
export async function takeImportLock(client: Client): Promise<void> {
  await client.query("select pg_advisory_lock($1)", [IMPORT_LOCK]);
  await clearScratch(client);
}

export async function releaseImportLock(client: Client): Promise<void> {
  await client.query("select pg_advisory_unlock($1)", [IMPORT_LOCK]);
}

/** Drops every table of the scratch schema. */
export async function clearScratch(client: Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "select quote_ident(tablename) as name from pg_tables where schemaname = $1",
    [SCRATCH_SCHEMA],
  );
  if (rows.length > 0)
    await client.query(`drop table if exists ${rows.map((row) => `${SCRATCH_SCHEMA}.${row.name}`).join(", ")} cascade`);
}
