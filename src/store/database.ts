import knexFactory, { type Knex } from "knex";
import { readdir } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { cancelQueriesWithTheirRequest } from "./query-cancellation.js";

const migrationsDir = fileURLToPath(new URL("../../migrations/", import.meta.url));

export interface DatabaseOptions {
  poolMax?: number;
  /**
   * How long a query may wait for its answer. Servers set it, so that a database that
   * stops answering costs a 503 within seconds rather than a hung call; imports and
   * migrations leave it unset, their statements may rightly take minutes.
   */
  queryTimeoutMs?: number;
}

/** How long a server's query may wait for its answer (see DatabaseOptions). */
export const SERVER_QUERY_TIMEOUT_MS = 8_000;

/** A Knex instance on PostgreSQL, with numeric and bigint columns left as exact text. */
export function createDatabase(url: string, options: DatabaseOptions = {}): Knex {
  const knex = knexFactory({
    client: "pg",
    // Fail fast when the database is away, so callers get a 503 within seconds
    // (CONVENTIONS.md, Lifecycle and faults), never a hang.
    connection: {
      connectionString: url,
      connectionTimeoutMillis: 3_000,
      query_timeout: options.queryTimeoutMs,
      keepAlive: true,
    },
    acquireConnectionTimeout: 5_000,
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Migrations are TypeScript modules loaded through our own source, so they run
    // the same way under tsx, tap and the compiled CLI.
    migrations: { migrationSource: typescriptMigrationSource, tableName: "knex_migrations" },
  });
  cancelQueriesWithTheirRequest(knex);
  return knex;
}

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

/**
 * The migrations as TypeScript sources or as their compilation (dist/server): either
 * way each keeps its source's name, the one knex_migrations records.
 */
const typescriptMigrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    const files = await readdir(migrationsDir);
    return files.filter((file) => MIGRATION_FILE.test(file)).sort();
  },
  getMigrationName(file) {
    return file.replace(/\.js$/, ".ts");
  },
  async getMigration(file): Promise<Migration> {
    return (await import(pathToFileURL(path.join(migrationsDir, file)).href)) as Migration;
  },
};

const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.(?:ts|js)$/;

/** Applies every pending migration; safe to run from several processes at once (Knex locks). */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest()) as [number, string[]];
  return applied;
}
