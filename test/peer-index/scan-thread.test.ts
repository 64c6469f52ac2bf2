// The scan thread (scan-thread.ts) around its happy path, which engine-equivalence.test.ts
// holds to SQL: a trend whose snapshot the thread does not hold, or after the thread is
// gone, is computed by the server thread alone, with the same answer; and a replaced
// snapshot's shared program columns are freed once both threads have let it go.
import t from "tap";
import { Decimal } from "../../src/benchmark/decimal.js";
import { FieldProblems } from "../../src/benchmark/field-problems.js";
import type { PeerEngine } from "../../src/benchmark/peer-engine.js";
import { readPeerGroup } from "../../src/benchmark/peer-group.js";
import { trendPeriods } from "../../src/benchmark/trend-periods.js";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { buildSnapshot } from "../../src/peer-index/build-snapshot.js";
import { createIndexPeerEngine } from "../../src/peer-index/index-engine.js";
import { releaseSnapshot } from "../../src/peer-index/release-snapshot.js";
import { startScanThread } from "../../src/peer-index/scan-thread.js";
import { snapshotBuffers, type PeerSnapshot } from "../../src/peer-index/snapshot.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";

const AS_OF = "2026-08-31";
const NO_FALLBACK = {} as PeerEngine;
const periods = trendPeriods(AS_OF, { periodMonths: 3, periods: 8 });
const everyone = readPeerGroup(
  {
    naics: ["1", "2", "3", "4", "5", "6", "7", "8", "9"].flatMap((d) =>
      ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"].map((e) => d + e),
    ),
    coverageId: 1,
    lineOfBusinessId: [0],
    exposureType: "Revenues",
    exposureRangeLow: 0,
    exposureRangeHigh: 1e15,
    organizationType: [],
  },
  new FieldProblems(),
)!;

const text = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (v instanceof Decimal ? v.toFixed() : v));

/** Bytes of the snapshot's shared columns. */
const sharedBytes = (snapshot: PeerSnapshot) =>
  snapshotBuffers(snapshot)
    .filter((buffer) => buffer instanceof SharedArrayBuffer)
    .reduce((sum, buffer) => sum + buffer.byteLength, 0);

/** Waits until `done` holds, for up to 30 s (a thread loads its TypeScript through tsx); whether it did. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

t.test("the scan thread", async (t) => {
  const dir = await createTempDir(t, "cpb-scan-thread-");
  await generateDataset(dir, { companies: 3_000, programs: 30_000, losses: 1_000, seed: "scan-thread", asOf: AS_OF });
  const { knex, url } = await createTestDatabase(t);
  await importDataset(knex, dir);
  // Held in an object, so that dropping it is not an assignment nobody reads.
  const replaced: { snapshot?: PeerSnapshot } = { snapshot: await buildSnapshot(url) };
  const second = await buildSnapshot(url);
  const shared = sharedBytes(second);
  t.ok(shared > 30_000 * 40, `the program columns are shared (${shared} bytes)`);

  const thread = startScanThread({ cores: 2, minRowsToSplit: 0, waitForJoin: true })!;
  t.teardown(() => thread.close());
  thread.adopt(replaced.snapshot!);
  t.ok(await eventually(() => thread.state() !== "starting"), "the thread starts");
  let current = replaced.snapshot!;
  const engine = createIndexPeerEngine(() => current, NO_FALLBACK, { scanThread: thread });
  const alone = createIndexPeerEngine(() => current, NO_FALLBACK);
  const expected = text(await alone.trend(everyone, periods));
  t.ok(
    JSON.parse(expected).periods.some((p: { programCount: number }) => p.programCount > 0),
    "the trend has programs",
  );

  t.equal(text(await engine.trend(everyone, periods)), expected, "shared by the threads: the same trend");
  const { parts: computed } = thread.counts();
  t.match(
    thread.counts(),
    { answered: 1, declined: 0 },
    `the thread computed ${computed} of the ${periods.length} periods`,
  );
  t.ok(computed >= 1 && computed <= periods.length);

  current = second;
  t.equal(text(await engine.trend(everyone, periods)), expected, "a snapshot the thread does not hold: the same trend");
  t.match(thread.counts(), { answered: 1, declined: 0, parts: computed }, "computed by the server thread alone");

  // The thread still holds the first snapshot: released and collected here, its shared
  // columns stay until the thread lets go of them too. (The release frees more, the
  // build's leftovers among it: only what changes once the thread lets go is read.)
  releaseSnapshot(replaced.snapshot!);
  delete replaced.snapshot;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const released = process.memoryUsage().arrayBuffers;
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.ok(
    process.memoryUsage().arrayBuffers > released - shared / 2,
    "a snapshot the scan thread holds keeps its shared columns",
  );
  thread.adopt(second);
  t.ok(
    await eventually(() => process.memoryUsage().arrayBuffers <= released - shared),
    "once the thread holds the next one, the replaced snapshot's shared columns are freed",
  );
  t.equal(text(await engine.trend(everyone, periods)), expected, "and it scans the next one");
  t.match(thread.counts(), { answered: 2, declined: 0 });

  await thread.close();
  t.equal(text(await engine.trend(everyone, periods)), expected, "once the thread is gone: the same trend");
  t.match(thread.counts(), { answered: 2, declined: 0 }, "computed by the server thread alone");
});
