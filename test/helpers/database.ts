import type { Knex } from "knex";
import pg from "pg";
import tap from "tap";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, migrateToLatest } from "../../src/store/database.js";
import { startEmbeddedPostgres } from "../../src/dev/embedded-postgres.js";

/** The minimal piece of a tap test this helper needs. */
interface Teardown {
  teardown(fn: () => unknown): void;
}

let serverUrl: Promise<string> | undefined;

/**
 * The PostgreSQL server of this test run: DATABASE_URL when set (CI and `npm test`
 * set it), else an embedded one started for this process and stopped at its exit.
 */
export function testServerUrl(): Promise<string> {
  serverUrl ??= (async () => {
    if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
    const parent = await mkdtemp(path.join(tmpdir(), "cpb-test-"));
    await chmod(parent, 0o755); // the OS user postgres must traverse it
    const dir = path.join(parent, "pgdata");
    const server = await startEmbeddedPostgres(dir);
    tap.teardown(() => server.stop());
    return server.url;
  })();
  return serverUrl;
}

/** A fresh, empty database on the test server; dropped when the test ends. */
export async function createScratchDatabase(t: Teardown): Promise<string> {
  const base = new URL(await testServerUrl());
  const name = `cpb_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(base, `create database ${name}`);
  t.teardown(() => adminQuery(base, `drop database if exists ${name} with (force)`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A migrated scratch database and a Knex on it, both torn down with the test. */
export async function createTestDatabase(t: Teardown): Promise<{ knex: Knex; url: string }> {
  const url = await createScratchDatabase(t);
  const knex = createDatabase(url, { poolMax: 4 });
  t.teardown(() => knex.destroy());
  await migrateToLatest(knex);
  return { knex, url };
}

async function adminQuery(base: URL, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: base.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
