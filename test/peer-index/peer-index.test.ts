// The index's life: not ready before its first snapshot, a new snapshot for each new
// dataset version, and never an old snapshot passed off as current when a build fails
// (the database may be away): SQL answers then, and the index recovers by itself.
import { pino } from "pino";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { buildSnapshot } from "../../src/peer-index/build-snapshot.js";
import { createPeerIndex } from "../../src/peer-index/peer-index.js";
import { createTestDatabase } from "../helpers/database.js";
import { waitFor } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";

t.test("builds, follows versions, steps aside when stale, recovers", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  const dir = await createTempDir(t, "cpb-index-");
  await generateDataset(dir, { companies: 100, programs: 1_000, losses: 200, seed: "index", asOf: "2026-08-31" });
  await importDataset(knex, dir);
  const bump = async () =>
    Number((await knex.raw("update dataset_version set version = version + 1 returning version")).rows[0].version);

  let failing = false;
  let builds = 0;
  const index = createPeerIndex({
    connectionString: url,
    log: pino({ level: "silent" }),
    retryDelayMs: 50,
    // The real build, made to fail on demand as it would with the database away.
    build: async (connectionString) => {
      builds++;
      if (failing) throw new Error("connection refused");
      return buildSnapshot(connectionString);
    },
  });
  t.teardown(() => index.stop());
  const server = await startTestServer(t, knex, { peerIndex: index });
  const readyz = async () =>
    (await (await fetch(`${server.url}/readyz`)).json()) as {
      status: string;
      reasons: string[];
      peerIndex: Record<string, unknown>;
    };

  t.equal(index.current(), undefined, "no snapshot before the first version is known");
  t.match(
    await readyz(),
    {
      status: "not ready",
      reasons: ["the peer index is being built"],
      peerIndex: { state: "building", version: null },
    },
    "not ready before the first snapshot",
  );

  index.datasetChanged(1);
  await waitFor(() => index.ready(), "the first snapshot");
  const first = await readyz();
  // The index leaves out the rows of companies without a NAICS code: no peer group holds them.
  const held = async (table: string) =>
    Number(
      (await knex(table)
        .join("companies", "companies.company_id", `${table}.company_id`)
        .whereNotNull("naics")
        .count("* as n")
        .first())!.n,
    );
  const [programs, losses] = [await held("programs"), await held("loss_events")];
  t.ok(programs > 900 && programs < 1_000, `${programs} of 1,000 programs have a company with a NAICS code`);
  t.match(
    first,
    { status: "ready", peerIndex: { state: "ready", version: 1, programs, losses, datasetVersion: 1 } },
    "readyz shows the snapshot",
  );
  t.ok((first.peerIndex.bytes as number) > 1_000 * 50, "readyz shows the snapshot's bytes");
  t.type(first.peerIndex.buildMs, "number");
  await waitFor(() => index.status().scanThread === "running", "the scan thread");
  t.match(await readyz(), { peerIndex: { scanThread: "running" } }, "readyz shows the scan thread running");

  const firstSnapshot = index.current()!;
  failing = true;
  index.datasetChanged(await bump());
  await waitFor(() => index.status().state === "stale", "a failed build");
  t.equal(index.current(), undefined, "a snapshot older than the confirmed version is not served: SQL answers");
  t.match(await readyz(), { peerIndex: { state: "stale", version: 1, datasetVersion: 2 } }, "readyz says it is stale");

  failing = false;
  await waitFor(() => index.status().version === 2, "the retried build");
  t.equal(index.current()?.version, 2, "the retry builds the confirmed version and serves it");
  t.equal(index.current()!.programs.day.length, programs, "the new snapshot holds every program");
  t.equal(
    firstSnapshot.losses.year.length + firstSnapshot.losses.caseAmount.length,
    0,
    "the replaced snapshot's own columns are given back at once",
  );
  // The shared ones (the program columns) go at the next collection: scan-thread.test.ts.
  t.ok(firstSnapshot.programs.day.buffer instanceof SharedArrayBuffer, "its program columns are shared");
  t.ok(
    firstSnapshot.losses.caseJson.length > 0 &&
      firstSnapshot.losses.caseProto.length > 0 &&
      firstSnapshot.losses.caseId.length > 0,
    "but not the cases' bytes and ids, which answers being written may read",
  );

  // A retry serves no stale snapshot either: a build that fails again leaves SQL answering.
  failing = true;
  let retries = 0;
  index.datasetChanged(await bump());
  await waitFor(() => index.status().state === "stale", "a failed build");
  while (retries < 3) {
    await waitFor(() => index.status().state === "stale", "a failed retry");
    t.equal(index.current(), undefined, `retry ${++retries}: still SQL`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  failing = false;
  await waitFor(() => index.current()?.version === 3, "version 3");

  // The database's version is the truth, even going down (a restore): it is built, once.
  await knex.raw("update dataset_version set version = 1");
  index.datasetChanged(1);
  await waitFor(() => index.current()?.version === 1, "the restored version");
  const built = builds;
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(builds, built, "and not rebuilt again and again");
});
