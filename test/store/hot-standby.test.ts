// A replica reading a PostgreSQL hot standby (issue 48): a standby refuses LISTEN
// (SQLSTATE 25006) and never sees a NOTIFY, so the dataset version watcher reads the
// table there; the version it reports is one the standby has replayed, data included.
// A read the standby cancels to replay the primary's changes is a retryable 503, never
// a 500, and a peer index build it cancels is built again at once.
import { pino } from "pino";
import pg from "pg";
import t from "tap";
import { bumpDatasetVersion } from "../../src/ingest/bump-dataset-version.js";
import { buildSnapshot } from "../../src/peer-index/build-snapshot.js";
import { createPeerIndex } from "../../src/peer-index/peer-index.js";
import { isReadConflict } from "../../src/store/database-errors.js";
import { createDatabase, migrateToLatest } from "../../src/store/database.js";
import { createDatasetVersionWatcher } from "../../src/store/dataset-version-watcher.js";
import { insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { waitFor } from "../helpers/peer-index.js";
import { query, startReplicatedPostgres, type ReplicatedPostgres } from "../helpers/replicated-postgres.js";
import { startTestServer } from "../helpers/server.js";

const silent = pino({ level: "silent" });

/** A primary and standby with a migrated database `cpb` on both; stopped with the test. */
async function replicatedDatabase(
  t: { teardown(fn: () => unknown): void },
  standbySettings: Record<string, string> = {},
  migrate = true,
): Promise<{ pair: ReplicatedPostgres; primary: string; standby: string }> {
  const pair = await startReplicatedPostgres({ standbySettings });
  t.teardown(() => pair.stop());
  await query(pair.primaryUrl, "create database cpb");
  const { primary, standby } = pair.databaseUrl("cpb");
  if (migrate) {
    const knex = createDatabase(primary);
    await migrateToLatest(knex);
    await knex.destroy();
  }
  await pair.caughtUp();
  return { pair, primary, standby };
}

t.test("on a hot standby the watcher reads the version, never ahead of the rows it names", async (t) => {
  const { primary, standby } = await replicatedDatabase(t);
  const onPrimary = createDatasetVersionWatcher({ connectionString: primary, log: silent });
  t.teardown(() => onPrimary.stop());
  await onPrimary.start();
  t.equal(onPrimary.mode(), "listen", "on the primary it LISTENs");

  // Each version commits with a company of its own: a version seen before its row is a lie.
  const reader = new pg.Client({ connectionString: standby });
  await reader.connect();
  t.teardown(() => reader.end());
  const checks: Promise<{ version: number; rows: number }>[] = [];
  const heard = new Map<number, number>();
  const watcher = createDatasetVersionWatcher({
    connectionString: standby,
    log: silent,
    standbyPollMs: 20,
    onChange: (version) => {
      heard.set(version, performance.now());
      checks.push(
        reader
          .query<{ rows: string }>("select count(*) as rows from companies where company_id = $1", [1_000 + version])
          .then((result) => ({ version, rows: Number(result.rows[0]!.rows) })),
      );
    },
  });
  t.teardown(() => watcher.stop());
  await watcher.start();
  t.equal(watcher.mode(), "poll", "on the standby it polls: LISTEN is refused there");
  t.equal(watcher.current(), 0);
  t.equal(watcher.waitingFor(), undefined, "it waits for nothing once it follows the version");

  const writer = new pg.Client({ connectionString: primary });
  await writer.connect();
  t.teardown(() => writer.end());
  const committed = new Map<number, number>();
  for (let i = 0; i < 25; i++) {
    await writer.query("begin");
    const version = Number(
      (await writer.query<{ v: string }>("select version + 1 as v from dataset_version")).rows[0]!.v,
    );
    await writer.query(
      "insert into companies (company_id, company_name, organization_type, naics) values ($1, $2, 'PRV', '52')",
      [1_000 + version, `Company of version ${version}`],
    );
    t.equal(await bumpDatasetVersion(writer as never), version);
    await writer.query("commit");
    committed.set(version, performance.now());
    await new Promise((resolve) => setTimeout(resolve, i % 5 === 0 ? 60 : 5));
  }
  await waitFor(() => watcher.current() === 25, "the standby's version 25");
  const results = await Promise.all(checks);
  t.ok(results.length >= 3, `versions heard on the standby: ${results.length} of 0-25 (polls skip some)`);
  t.same(
    results.filter((r) => r.version > 0 && r.rows !== 1),
    [],
    "every version heard on the standby already has its row there",
  );
  const lags = [...heard].map(([version, at]) => at - committed.get(version)!).sort((a, b) => a - b);
  t.ok(lags.at(-1)! < 1_000, `heard within ${Math.round(lags.at(-1)!)} ms of the primary's commit`);
  t.equal(onPrimary.current(), 25, "the primary's watcher heard the same versions by NOTIFY");
});

t.test("/readyz names what a replica on an unmigrated standby waits for", async (t) => {
  const { standby } = await replicatedDatabase(t, {}, false);
  const watcher = createDatasetVersionWatcher({ connectionString: standby, log: silent, minRetryDelayMs: 50 });
  t.teardown(() => watcher.stop());
  void watcher.start();
  await waitFor(() => watcher.waitingFor()?.includes("migrate") === true, "the watcher's reason");
  const knex = createDatabase(standby);
  t.teardown(() => knex.destroy());
  const server = await startTestServer(t, knex, {
    datasetVersion: () => watcher.current(),
    datasetWaitingFor: () => watcher.waitingFor(),
  });
  const res = await fetch(`${server.url}/readyz`);
  t.equal(res.status, 503);
  const { reasons } = (await res.json()) as { reasons: string[] };
  t.match(reasons, [/^waiting for the dataset version: the database has no dataset_version table: run `cpb migrate`/]);
  t.notOk(
    reasons.some((reason) => /cannot be reached|does not answer/.test(reason)),
    "the database answers: no reason says it does not",
  );
});

t.test("a read the standby cancels for its replay is a 503 with Retry-After, never a 500", async (t) => {
  // 0: a query holding a table the replay needs is cancelled at once (PostgreSQL 26.4.2).
  const { primary, standby } = await replicatedDatabase(t, { max_standby_streaming_delay: "0" });
  const primaryKnex = createDatabase(primary);
  t.teardown(() => primaryKnex.destroy());
  await insertAnalyticsFixture(primaryKnex);
  const standbyKnex = createDatabase(standby);
  t.teardown(() => standbyKnex.destroy());
  const server = await startTestServer(t, standbyKnex, { asOf: "2026-08-31" });

  // The replay of a lock on the tables every limit adequacy reads, again and again.
  let locking = true;
  const locks = (async () => {
    while (locking) {
      await primaryKnex.transaction(async (trx) => {
        await trx.raw("lock table programs, companies, loss_events in access exclusive mode");
      });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const statuses = new Map<number, number>();
  let refusal: { retryAfter: string | null; body: unknown } | undefined;
  const deadline = performance.now() + 20_000;
  const call = async () => {
    while (!refusal && performance.now() < deadline) {
      const res = await fetch(
        `${server.url}/commercialpolicybenchmark/v2.0/lossdetails/limitadequacy?Naics=52&CoverageId=1&ExposureRangeLow=0&ExposureRangeHigh=10000000&ClientLimit=5000000`,
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const body = await res.json();
      // A conflict can also end the session itself ("terminating connection"): that 503 is
      // the database's away one. The loop goes on until a cancelled read is seen as such.
      if (res.status === 503 && /cancelled this read/.test((body as { detail?: string }).detail ?? ""))
        refusal = { retryAfter: res.headers.get("retry-after"), body };
      else if (res.status === 503) t.equal(res.headers.get("retry-after"), "2", "any 503 says when to retry");
    }
  };
  await Promise.all([call(), call(), call(), call()]);
  locking = false;
  await locks;
  t.comment(`answers: ${[...statuses].map(([status, n]) => `${status}×${n}`).join(", ")}`);
  t.ok(refusal, "a read was cancelled by the replay (a 503 seen)");
  t.same(
    [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
    [],
    "only 200s and 503s",
  );
  t.equal(refusal?.retryAfter, "2", "the 503 says when to retry");
  t.match(refusal?.body, { status: 503, code: "unavailable", detail: /cancelled this read while it applied new data/ });
});

t.test("a peer index build the standby cancels is built again at once, the old snapshot answering", async (t) => {
  const { primary, standby } = await replicatedDatabase(t, { max_standby_streaming_delay: "0" });
  const primaryKnex = createDatabase(primary);
  t.teardown(() => primaryKnex.destroy());
  await insertAnalyticsFixture(primaryKnex);
  const builds: Array<{ at: number; error?: unknown }> = [];
  const index = createPeerIndex({
    connectionString: standby,
    log: silent,
    scanThread: false,
    // A failed build is retried after a minute: only the conflict's own path rebuilds at once.
    retryDelayMs: 60_000,
    // The second build reads as long as a large one does, and the replay of a lock cancels it.
    build: async (url) => {
      builds.push({ at: performance.now() });
      if (builds.length === 2) {
        try {
          await query(url, "select pg_sleep(20) from programs limit 1");
        } catch (error) {
          builds[1]!.error = error;
          throw error;
        }
      }
      return buildSnapshot(url);
    },
  });
  t.teardown(() => index.stop());
  index.datasetChanged(0);
  await waitFor(() => index.ready(), "the first snapshot");
  const first = index.current();

  await primaryKnex.raw("update dataset_version set version = 1");
  index.datasetChanged(1);
  await waitFor(() => builds.length === 2, "the second build");
  await new Promise((resolve) => setTimeout(resolve, 200)); // the sleep holds programs now
  let answering = true;
  const watching = setInterval(() => (answering &&= index.current() !== undefined), 1);
  t.teardown(() => clearInterval(watching));
  await primaryKnex.transaction((trx) => trx.raw("lock table programs in access exclusive mode"));
  await waitFor(() => index.status().version === 1, "the rebuilt snapshot");
  clearInterval(watching);
  t.ok(isReadConflict(builds[1]!.error), `the second build was cancelled: ${(builds[1]!.error as Error).message}`);
  t.equal(builds.length, 3, "built again");
  t.ok(builds[2]!.at - builds[1]!.at < 5_000, "at once, not after the minute of a failed build");
  t.ok(answering, "a snapshot answered throughout: the old one until the new one was in");
  t.not(index.current(), first);
  t.equal(index.status().state, "ready");
});
