import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { pino, type Logger } from "pino";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import {
  createDatasetVersionWatcher,
  DATASET_WATCHER_APPLICATION_NAME,
  type DatasetVersionWatcher,
} from "../../src/store/dataset-version-watcher.js";
import { createTestDatabase } from "../helpers/database.js";
import { proxyDatabase } from "../helpers/tcp-proxy.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** A logger whose lines the test can read. */
function capturedLogger(): { log: Logger; lines: Array<{ level: number; msg: string; waitingFor?: string }> } {
  const lines: Array<{ level: number; msg: string; waitingFor?: string }> = [];
  const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

/** Runs `cpb import DIR` in its own process and resolves when it exits, with the moment it exited. */
function runCliImport(url: string, dir: string): Promise<{ code: number | null; output: string; exitedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/cpb.js", "import", dir], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      const exitedAt = performance.now();
      // 'close' follows once the pipes are drained, so the output is complete.
      child.once("close", () => resolve({ code, output, exitedAt }));
    });
  });
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function startWatcher(
  t: { teardown(fn: () => unknown): void },
  url: string,
  log: Logger,
  changes: Array<{ version: number; at: number }>,
  minRetryDelayMs?: number,
): DatasetVersionWatcher {
  const watcher = createDatasetVersionWatcher({
    connectionString: url,
    log,
    onChange: (version) => changes.push({ version, at: performance.now() }),
    minRetryDelayMs,
  });
  t.teardown(() => watcher.stop());
  return watcher;
}

t.test("a server hears of `cpb import` within one second of it exiting 0", async (t) => {
  const { url } = await createTestDatabase(t);
  const dir = await createTempDir(t);
  await generateDataset(dir, { companies: 200, programs: 1_000, losses: 200, seed: "watcher", asOf: "2026-11-22" });
  const { log } = capturedLogger();
  const changes: Array<{ version: number; at: number }> = [];
  const watcher = startWatcher(t, url, log, changes);

  await watcher.start();
  t.equal(watcher.current(), 0, "the version of a fresh database is read at start");
  t.same(
    changes.map((change) => change.version),
    [0],
    "onChange reports the first read",
  );

  const run = await runCliImport(url, dir);
  t.equal(run.code, 0, `cpb import exits 0\n${run.output}`);
  t.match(run.output, /dataset version 1\b/);
  await waitFor("the new version", () => watcher.current() === 1, 1_000);
  const change = changes.find((entry) => entry.version === 1);
  t.ok(change, "onChange fired with the new version");
  const latencyMs = (change?.at ?? Infinity) - run.exitedAt;
  t.comment(`onChange fired ${latencyMs.toFixed(0)} ms after the import exited (negative: before it exited)`);
  t.ok(latencyMs < 1_000, `within one second of the exit (${latencyMs.toFixed(0)} ms)`);
  t.same(
    changes.map((entry) => entry.version),
    [0, 1],
    "one change per import, no repeats",
  );
});

t.test("after its connection is killed it reconnects and re-reads a version it was never notified of", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  const { log, lines } = capturedLogger();
  const changes: Array<{ version: number; at: number }> = [];
  const watcher = startWatcher(t, url, log, changes);
  await watcher.start();
  t.equal(watcher.current(), 0);

  // The bump carries no NOTIFY, and the session that could have heard one is then
  // killed: only a fresh read after reconnecting can learn of version 5.
  await knex.raw("update dataset_version set version = 5");
  const killed = await knex.raw<{ rows: unknown[] }>(
    "select pg_terminate_backend(pid) from pg_stat_activity where application_name = ? and datname = current_database()",
    [DATASET_WATCHER_APPLICATION_NAME],
  );
  t.equal(killed.rows.length, 1, "the watcher's one connection is found by its application_name");
  await waitFor("the watcher to catch up", () => watcher.current() === 5);
  t.same(
    changes.map((change) => change.version),
    [0, 5],
  );
  t.ok(
    lines.some((line) => line.level === 40 && /connection lost/.test(line.msg)),
    "the loss is logged at warn",
  );

  await knex.raw("update dataset_version set version = version + 1, changed_at = now()");
  await knex.raw("select pg_notify('cpb_dataset_version', '6')");
  await waitFor("notifications on the new connection", () => watcher.current() === 6);
});

t.test("while the database is unreachable it retries, and catches up when it returns", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  const { proxy, url: proxied } = await proxyDatabase(t, url);
  const { log, lines } = capturedLogger();
  const changes: Array<{ version: number; at: number }> = [];
  const watcher = startWatcher(t, proxied, log, changes);
  await watcher.start();
  t.equal(watcher.current(), 0);

  await proxy.cut();
  await waitFor("the watcher to notice", () => lines.some((line) => /connection lost/.test(line.msg)));
  // Bumped with its notification while the watcher is away: the notification is lost to it.
  await knex.raw("update dataset_version set version = version + 1");
  await knex.raw("select pg_notify('cpb_dataset_version', '1')");
  await waitFor("a failed reconnect", () =>
    lines.some((line) => /^the database cannot be reached/.test(line.waitingFor ?? "")),
  );
  t.equal(watcher.current(), 0, "no version is invented while away");

  await proxy.restore();
  await waitFor("the watcher to catch up", () => watcher.current() === 1);
  t.same(
    changes.map((change) => change.version),
    [0, 1],
  );
  t.ok(
    lines.every((line) => line.level <= 40),
    "nothing worse than warn is logged",
  );
});

t.test("start() waits for a database that is not there yet", async (t) => {
  const { url } = await createTestDatabase(t);
  const { proxy, url: proxied } = await proxyDatabase(t, url);
  await proxy.cut();
  const { log, lines } = capturedLogger();
  const watcher = startWatcher(t, proxied, log, [], 100);

  let started = false;
  const starting = watcher.start().then(() => (started = true));
  await waitFor("a failed first attempt", () =>
    lines.some((line) => /^the database cannot be reached/.test(line.waitingFor ?? "")),
  );
  t.equal(started, false, "start() has not resolved while the database is away");
  t.equal(watcher.current(), undefined);
  await proxy.restore();
  await starting;
  t.equal(watcher.current(), 0, "it resolves once the version is read");
});

t.test("payloads that are not versions are ignored; stop() cancels a pending reconnect", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  const { log, lines } = capturedLogger();
  const changes: Array<{ version: number; at: number }> = [];
  const watcher = startWatcher(t, url, log, changes, 100);
  await watcher.start();

  await knex.raw("select pg_notify('cpb_dataset_version', 'not a number'), pg_notify('cpb_dataset_version', '-3')");
  await knex.raw("select pg_notify('cpb_dataset_version', '7')");
  await waitFor("the good payload", () => watcher.current() === 7);
  t.same(
    changes.map((change) => change.version),
    [0, 7],
  );

  await knex.raw(
    "select pg_terminate_backend(pid) from pg_stat_activity where application_name = ? and datname = current_database()",
    [DATASET_WATCHER_APPLICATION_NAME],
  );
  await waitFor("the watcher to notice", () => lines.some((line) => /connection lost/.test(line.msg)));
  await watcher.stop();
  // Five times the first retry delay: a reconnect that stop() failed to cancel would be back by then.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const left = await knex.raw<{ rows: unknown[] }>(
    "select 1 from pg_stat_activity where application_name = ? and datname = current_database()",
    [DATASET_WATCHER_APPLICATION_NAME],
  );
  t.equal(left.rows.length, 0, "no connection comes back after stop()");
});
