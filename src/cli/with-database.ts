import { ConfigError } from "../config-error.js";
import { readConfig } from "../config.js";
import { createDatabase } from "../store/database.js";

/** Runs work on DATABASE_URL with a small pool, closed afterwards; exit 2 when it is not set. */
export async function withDatabase<T>(work: (knex: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> {
  const { databaseUrl } = readConfig(process.env, { host: "0.0.0.0" });
  if (!databaseUrl) throw new ConfigError("DATABASE_URL is not set");
  const knex = createDatabase(databaseUrl, { poolMax: 2 });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}
