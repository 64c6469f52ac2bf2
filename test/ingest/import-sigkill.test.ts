import type { Knex } from "knex";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "./helpers/temp-dir.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Set as PGAPPNAME on the import, so its backend can be told from the test's own. */
const IMPORT_APPLICATION_NAME = "cpb-import-sigkill-test";

/** Each table with the key that orders its rows for the checksum. */
const TABLES = [
  ["coverages", "coverage_id"],
  ["lines_of_business", "line_of_business_id"],
  ["companies", "company_id"],
  ["programs", "program_id"],
  ["loss_events", "loss_event_id"],
  ["dataset_version", "singleton"],
] as const;

/** Row count and an md5 of every row's text, in key order, per table. */
async function snapshot(knex: Knex): Promise<Record<string, { rows: number; md5: string }>> {
  const result: Record<string, { rows: number; md5: string }> = {};
  for (const [table, key] of TABLES) {
    const { rows } = await knex.raw<{ rows: Array<{ rows: number; md5: string }> }>(
      `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by t.${key}), '')) as md5 from ${table} t`,
    );
    result[table] = rows[0] ?? { rows: -1, md5: "" };
  }
  return result;
}

async function datasetVersion(knex: Knex): Promise<number> {
  return Number((await knex("dataset_version").first("version"))?.version);
}

/** `cpb import [OPTIONS] DIR` as its own process, the way an operator runs it. */
function startCliImport(
  url: string,
  ...args: string[]
): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> } {
  const child = spawn(process.execPath, ["bin/cpb.js", "import", ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PGAPPNAME: IMPORT_APPLICATION_NAME },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>(
    (resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, signal) => resolve({ code, signal, output }));
    },
  );
  return { child, done };
}

async function poll<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The import's backends, how many rows the COPY each one is running has taken in so far, and what each runs. */
async function importBackends(
  knex: Knex,
): Promise<Array<{ pid: number; copied: number | null; state: string | null; query: string }>> {
  const { rows } = await knex.raw<{
    rows: Array<{ pid: number; copied: string | null; state: string | null; query: string }>;
  }>(
    `select a.pid, p.tuples_processed::text as copied, a.state, a.query
       from pg_stat_activity a left join pg_stat_progress_copy p on p.pid = a.pid
      where a.datname = current_database() and a.application_name = ?`,
    [IMPORT_APPLICATION_NAME],
  );
  return rows.map((row) => ({
    pid: row.pid,
    state: row.state,
    query: row.query,
    copied: row.copied === null ? null : Number(row.copied),
  }));
}

type Backend = { copied: number | null; state: string | null; query: string };

/**
 * Where in an import the kill lands: a moment its backend is seen at, under options
 * that take it down one road or the other.
 */
const KILL_POINTS: { point: string; options: string[]; reached(backend: Backend): boolean }[] = [
  // The exact road (a merge), well into the staging: a COPY past more rows than any file
  // but programs.csv holds, so earlier files already sit in the open transaction.
  { point: "mid-COPY", options: [], reached: (backend) => (backend.copied ?? 0) > 100_000 },
  // The exact road rebuilding programs (the file is large against its table), in the transaction.
  { point: "mid-index build", options: [], reached: (backend) => isIndexBuild(backend) },
  // The direct road (--replace): the replacements are built, committed, in the scratch schema.
  { point: "mid-index build of --replace", options: ["--replace"], reached: (backend) => isIndexBuild(backend) },
];

function isIndexBuild(backend: Backend): boolean {
  return backend.state === "active" && /^create index \S+ on cpb_import\.programs/i.test(backend.query);
}

async function tablesIn(knex: Knex, pattern: string): Promise<string[]> {
  const { rows } = await knex.raw<{ rows: { name: string }[] }>(
    "select relnamespace::regnamespace || '.' || relname as name from pg_class where relkind = 'r' and (relnamespace::regnamespace || '.' || relname) like ?",
    [pattern],
  );
  return rows.map((row) => row.name);
}

t.test(
  "an import killed with SIGKILL at any point leaves the data, the version and the locks as they were",
  async (t) => {
    const { knex, url } = await createTestDatabase(t);
    const small = await createTempDir(t, "cpb-sigkill-small-");
    const big = await createTempDir(t, "cpb-sigkill-big-");
    await generateDataset(small, {
      companies: 300,
      programs: 1_500,
      losses: 300,
      seed: "before the kill",
      asOf: "2026-11-22",
    });
    const first = await startCliImport(url, small).done;
    t.equal(first.code, 0, `the first import succeeds\n${first.output}`);
    t.equal(await datasetVersion(knex), 1);
    const before = await snapshot(knex);
    t.equal(before.programs?.rows, 1_500);

    let started = performance.now();
    await generateDataset(big, {
      companies: 20_000,
      programs: 400_000,
      losses: 40_000,
      seed: "killed mid-load",
      asOf: "2026-11-22",
    });
    t.comment(`generated the large folder in ${Math.round(performance.now() - started)} ms`);

    for (const { point, options, reached } of KILL_POINTS) {
      started = performance.now();
      const victim = startCliImport(url, ...options, big);
      let exited = false;
      void victim.done.then(() => (exited = true));
      const underWay = await poll(`the import ${point}`, 60_000, async () => {
        if (exited)
          throw new Error(`the import ended before it could be killed ${point}:\n${(await victim.done).output}`);
        return (await importBackends(knex)).find(reached);
      });
      const pids = (await importBackends(knex)).map((backend) => backend.pid);
      victim.child.kill("SIGKILL");
      const killedAfter = performance.now() - started;
      const killed = await victim.done;
      t.equal(killed.signal, "SIGKILL", `${point}: the import died by SIGKILL`);
      t.comment(
        `${point}: killed ${Math.round(killedAfter)} ms after spawning (backend ${underWay.pid}: ${underWay.copied ?? underWay.query.slice(0, 60)})`,
      );

      // PostgreSQL rolls the transaction back when it notices the client is gone.
      const gone = performance.now();
      await poll("the killed import's backends to end", 20_000, async () =>
        (await importBackends(knex)).length === 0 ? true : undefined,
      );
      t.comment(`${point}: its backends ended ${Math.round(performance.now() - gone)} ms after the kill`);
      const { rows: locks } = await knex.raw<{ rows: unknown[] }>("select 1 from pg_locks where pid = any(?::int[])", [
        pids,
      ]);
      t.equal(locks.length, 0, `${point}: no lock of the killed import is left`);
      t.same(
        await tablesIn(knex, "public.cpb\\_%"),
        [],
        `${point}: no table of the import is left among the service's`,
      );
      // The direct road's replacements were committed in the scratch schema: the next import removes them.
      if (!options.includes("--replace"))
        t.same(await tablesIn(knex, "cpb_import.%"), [], `${point}: nothing is left in the scratch schema`);

      t.same(await snapshot(knex), before, `${point}: every table's rows and checksums are exactly the old ones`);
      t.equal(await datasetVersion(knex), 1, `${point}: the dataset version is still 1`);
    }
    t.not(
      (await tablesIn(knex, "cpb_import.%")).length,
      0,
      "the killed --replace left its replacements in the scratch schema",
    );

    started = performance.now();
    const again = await startCliImport(url, big).done;
    t.equal(again.code, 0, `importing the large folder afterwards succeeds\n${again.output}`);
    t.comment(`the large import took ${Math.round(performance.now() - started)} ms`);
    t.equal(await datasetVersion(knex), 2);
    const after = await snapshot(knex);
    t.ok((after.programs?.rows ?? 0) >= 400_000, "the large folder's programs are in");
    t.ok((after.loss_events?.rows ?? 0) >= 40_000, "the large folder's losses are in");
    t.not(after.programs?.md5, before.programs?.md5);
    t.same(
      await tablesIn(knex, "cpb_import.%"),
      [],
      "the next import removed what the killed one left in the scratch schema",
    );
  },
);
