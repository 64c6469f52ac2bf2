import pg from "pg";
import { runCpb } from "./cpb-command.js";

export interface ExpectedRows {
  companies: number;
  programs: number;
  losses: number;
}

/** Databases the bench may drop and recreate; any other is only ever reused. */
const OWN_DATABASE = /^cpb_bench_[a-z0-9_]+$/;

export function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`unexpected database name "${name}" in the database URL`);
  return name;
}

function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = "/postgres";
  return url.href;
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Whether the database holds a committed import of exactly these row counts. An import
 * is one transaction that also bumps the dataset version, so matching counts with a
 * version of 1 or more mean a whole one (a running import shows nothing yet).
 */
export async function holdsImport(databaseUrl: string, expected: ExpectedRows): Promise<boolean> {
  const found = await withClient(adminUrl(databaseUrl), (c) =>
    c.query("select 1 from pg_database where datname = $1", [databaseName(databaseUrl)]),
  );
  if (!found.rowCount) return false;
  return withClient(databaseUrl, async (client) => {
    const tables = await client.query<{ ok: boolean }>(
      "select to_regclass('public.programs') is not null and to_regclass('public.dataset_version') is not null as ok",
    );
    if (!tables.rows[0]?.ok) return false;
    const { rows } = await client.query<{ companies: string; programs: string; losses: string; version: string }>(`
      select (select count(*) from companies) as companies, (select count(*) from programs) as programs,
             (select count(*) from loss_events) as losses, (select version from dataset_version) as version`);
    const row = rows[0];
    return (
      row !== undefined &&
      Number(row.companies) === expected.companies &&
      Number(row.programs) === expected.programs &&
      Number(row.losses) === expected.losses &&
      Number(row.version) >= 1
    );
  });
}

/** Drops (when present) and creates one of the bench's own databases. */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  if (!OWN_DATABASE.test(name)) {
    throw new Error(
      `refusing to drop "${name}": only cpb_bench_* databases are recreated; pass --reuse for a database that already holds this scale`,
    );
  }
  await withClient(adminUrl(databaseUrl), async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  if (!OWN_DATABASE.test(name)) return;
  await withClient(adminUrl(databaseUrl), (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** `cpb migrate`: always, so a reused database gets the schema the server expects. */
export async function migrate(databaseUrl: string): Promise<void> {
  await runCpb(["migrate"], { ...process.env, DATABASE_URL: databaseUrl });
}

/** `cpb import DIR`; returns its wall time in ms. */
export async function importFolder(databaseUrl: string, dir: string): Promise<number> {
  const started = performance.now();
  await runCpb(["import", dir], { ...process.env, DATABASE_URL: databaseUrl });
  return performance.now() - started;
}
