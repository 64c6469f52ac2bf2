import type { Client, DatabaseError } from "pg";
import type { Replacement } from "./table-rebuild.js";

/** How long one try to take the tables may queue readers behind it. */
const LOCK_TRY_MS = 200;
/** How long the import keeps trying before it gives up (a query that holds a table for minutes). */
const LOCK_GIVE_UP_MS = 10 * 60_000;

/**
 * Puts the replacements in place of the stored tables, in the import's transaction:
 * the old tables are dropped and the new ones moved from the scratch schema into
 * theirs, where they already bear the old names, as do their indexes and constraints.
 * Foreign keys of other tables to a replaced one (tables this import leaves empty) are
 * declared again on the new one. This is the only step that holds tables exclusively,
 * and only for a few catalog changes until the commit.
 */
export async function swapIn(client: Client, replacements: readonly Replacement[]): Promise<void> {
  if (replacements.length === 0) return;
  const replaced = new Set(replacements.map((r) => r.spec.table));
  const repointed = replacements.flatMap((r) => r.definition.referencedBy.filter((key) => !replaced.has(key.table)));
  await lockExclusively(client, [...replaced, ...new Set(repointed.map((key) => key.table))]);
  for (const key of repointed) await client.query(`alter table ${key.table} drop constraint ${key.name}`);
  // Children first: nothing is left depending on a table when it goes.
  for (const { spec } of [...replacements].reverse()) await client.query(`drop table ${spec.table}`);
  for (const { table, definition } of replacements)
    await client.query(`alter table ${table} set schema ${definition.schema}`);
  // Those tables are empty (a replaced table's other children are replaced too): the check is instant.
  for (const key of repointed)
    await client.query(`alter table ${key.table} add constraint ${key.name} ${key.definition}`);
}

/**
 * Takes the tables in ACCESS EXCLUSIVE mode without making readers wait long: a
 * waiting lock queues every later reader behind it, so each try waits at most
 * LOCK_TRY_MS for the queries running on them, and gives way between tries.
 */
async function lockExclusively(client: Client, tables: readonly string[]): Promise<void> {
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    await client.query("savepoint cpb_swap_lock");
    try {
      await client.query(`set local lock_timeout = ${LOCK_TRY_MS}`);
      await client.query(`lock table ${tables.join(", ")} in access exclusive mode`);
      await client.query("set local lock_timeout to default");
      await client.query("release savepoint cpb_swap_lock");
      return;
    } catch (error) {
      if ((error as DatabaseError).code !== "55P03") throw error; // lock_not_available
      await client.query("rollback to savepoint cpb_swap_lock");
      if (performance.now() - started > LOCK_GIVE_UP_MS) {
        throw new Error(
          `queries kept ${tables.join(", ")} busy for ${LOCK_GIVE_UP_MS / 60_000} minutes (${attempt} tries): the import could not take them`,
          {
            cause: error,
          },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
    }
  }
}
