// A rebuild under load: while an import commits and the index rebuilds, requests keep
// coming, and each answer must be wholly the old data's or wholly the new data's, never
// a mixture; the new data is served soon after the commit; nothing fails meanwhile.
import { pino } from "pino";
import t from "tap";
import { createPeerIndex } from "../../src/peer-index/peer-index.js";
import { createDatasetVersionWatcher } from "../../src/store/dataset-version-watcher.js";
import { waitFor } from "../helpers/peer-index.js";
import { databaseWithNextImport, EVERY_SECTOR_GROUP as GROUP } from "../helpers/next-import.js";
import { startTestServer } from "../helpers/server.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";

/** Requests whose answers depend on every program and loss of coverage 1. */
const REQUESTS = [
  { path: "assessment/getassessmentdata", body: { ...GROUP, limit: 5_000_000, premium: 50_000, retention: 100_000 } },
  { path: "assessment/getrpmdistributiondata", body: { ...GROUP, limit: 5_000_000, premium: 50_000 } },
  { path: "lossdetails/getlimitadequacydata", body: { ...GROUP, clientLimit: 2_000_000 } },
];

t.test("answers during a rebuild are of one version or the next, never a mixture", async (t) => {
  const { knex, url, importNext } = await databaseWithNextImport(t, "rebuild", {
    companies: 400,
    programs: 6_000,
    losses: 1_500,
    asOf: AS_OF,
  });

  // The server's own wiring (run-server.ts): the watcher tells the index of each version.
  const log = pino({ level: "silent" });
  const peerIndex = createPeerIndex({ connectionString: url, log });
  const watcher = createDatasetVersionWatcher({
    connectionString: url,
    log,
    onChange: (v) => peerIndex.datasetChanged(v),
  });
  t.teardown(async () => {
    await watcher.stop();
    peerIndex.stop();
  });
  await watcher.start();
  await waitFor(() => peerIndex.ready(), "the first snapshot");
  const server = await startTestServer(t, knex, { asOf: AS_OF, peerIndex });
  const sqlServer = await startTestServer(t, knex, { asOf: AS_OF });

  const ask = async (base: string, request: (typeof REQUESTS)[number]) => {
    const res = await fetch(`${base}${P}/${request.path}`, { method: "POST", body: JSON.stringify(request.body) });
    return { status: res.status, text: await res.text() };
  };
  const answersOf = async (base: string) => Promise.all(REQUESTS.map(async (r) => (await ask(base, r)).text));

  const before = await answersOf(server.url);
  t.strictSame(before, await answersOf(sqlServer.url), "version 1: the index answers as SQL does");
  const firstVersion = peerIndex.status().version!;

  // Four clients ask over and over while the import commits and the index rebuilds.
  const seen: { request: number; status: number; text: string }[] = [];
  let running = true;
  const clients = Array.from({ length: 4 }, async (_, client) => {
    for (let i = client; running; i++) {
      const request = i % REQUESTS.length;
      seen.push({ request, ...(await ask(server.url, REQUESTS[request]!)) });
    }
  });
  await importNext();
  const committed = performance.now();
  await waitFor(() => peerIndex.status().version! > firstVersion, "the next snapshot");
  const servedAfterMs = performance.now() - committed;
  await new Promise((resolve) => setTimeout(resolve, 100));
  running = false;
  await Promise.all(clients);

  const after = await answersOf(server.url);
  t.strictSame(after, await answersOf(sqlServer.url), "version 2: the index answers as SQL does");
  t.notSame(after, before, "the two versions answer differently");
  t.ok(servedAfterMs < 10_000, `the new version was served ${Math.round(servedAfterMs)} ms after the commit`);
  t.ok(seen.length > 20, `${seen.length} answers during the import and rebuild`);
  t.strictSame(seen.filter((s) => s.status !== 200).length, 0, "no request failed");
  const mixed = seen.filter((s) => s.text !== before[s.request] && s.text !== after[s.request]);
  t.strictSame(mixed.length, 0, "every answer is wholly of one version");
  t.ok(
    seen.some((s) => s.text === before[s.request]) && seen.some((s) => s.text === after[s.request]),
    "both versions were seen",
  );
});
