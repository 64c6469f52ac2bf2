// Every answer names the dataset version it was read from (issue 48): `Cpb-Dataset-Version`
// on REST, `cpb-dataset-version` response metadata on gRPC and Connect. During the
// rebuild that follows an import the peer snapshot still answers the peer-group figures
// from the old version while lookups read the new: each answer says which, its figures
// are that version's, and a kept answer (REST or gRPC) says the version it was kept with.
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { pino } from "pino";
import t from "tap";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { buildSnapshot } from "../../src/peer-index/build-snapshot.js";
import { createPeerIndex } from "../../src/peer-index/peer-index.js";
import { createDatasetVersionWatcher } from "../../src/store/dataset-version-watcher.js";
import { databaseWithNextImport, EVERY_SECTOR_GROUP } from "../helpers/next-import.js";
import { waitFor } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";
const PEER_CALLS = [
  { path: "lossdetails/getlimitadequacydata", body: { ...EVERY_SECTOR_GROUP, clientLimit: 5_000_000 } },
  { path: "assessment/getassessmentdata", body: { ...EVERY_SECTOR_GROUP, limit: 5_000_000, premium: 50_000 } },
  { path: "trend/getmarkettrend", body: { ...EVERY_SECTOR_GROUP, periodMonths: 6, periods: 4 } },
  { path: "lossdetails/getlossexperience", body: { ...EVERY_SECTOR_GROUP, years: 20, limits: [1_000_000, 5_000_000] } },
  { path: "peergroup/suggestpeergroups", body: { ...EVERY_SECTOR_GROUP, naics: ["52"], minPrograms: 30 } },
];
const LOOKUPS = ["company/1", "lossdetails/1", "company?$top=2", "reference/getreferencedata"];

t.test("every answer names the version it was read from, over every protocol, kept or not", async (t) => {
  const { knex, url, importNext } = await databaseWithNextImport(t, "dataversion", {
    companies: 200,
    programs: 2_000,
    losses: 300,
    asOf: AS_OF,
  });
  const log = pino({ level: "silent" });
  // The second build waits until the test lets it go: the rebuild window, held open.
  let releaseBuild: () => void = () => {};
  const held = new Promise<void>((resolve) => (releaseBuild = resolve));
  let builds = 0;
  const peerIndex = createPeerIndex({
    connectionString: url,
    log,
    scanThread: false,
    build: async (connectionString) =>
      ++builds > 1 ? held.then(() => buildSnapshot(connectionString)) : buildSnapshot(connectionString),
  });
  t.teardown(() => peerIndex.stop());
  const watcher = createDatasetVersionWatcher({
    connectionString: url,
    log,
    onChange: (version) => peerIndex.datasetChanged(version),
  });
  t.teardown(() => watcher.stop());
  await watcher.start();
  await waitFor(() => peerIndex.ready(), "the first snapshot");
  const server = await startTestServer(t, knex, {
    asOf: AS_OF,
    peerIndex,
    datasetVersion: () => watcher.current(),
    answerCacheBytes: 4 << 20,
  });
  const truth = await startTestServer(t, knex, { asOf: AS_OF }); // SQL, no cache: the database now
  const rest = async (
    base: string,
    call: string | { path: string; body: object },
    headers: Record<string, string> = {},
  ) => {
    const res =
      typeof call === "string"
        ? await fetch(`${base}${P}/${call}`, { headers })
        : await fetch(`${base}${P}/${call.path}`, { method: "POST", body: JSON.stringify(call.body), headers });
    return {
      status: res.status,
      version: res.headers.get("cpb-dataset-version"),
      etag: res.headers.get("etag"),
      body: await res.text(),
    };
  };
  const grpc = createGrpcTransport({ baseUrl: server.url });
  const grpcVersion = async (call: (options: { onHeader: (h: Headers) => void }) => Promise<unknown>) => {
    let version: string | null = null;
    await call({ onHeader: (header) => (version = header.get("cpb-dataset-version")) });
    return version;
  };
  const companies = createClient(CompanyService, grpc);
  const losses = createClient(LossDetailsService, grpc);
  const peerOverGrpc = (options: { onHeader: (h: Headers) => void }) =>
    losses.postLimitAdequacyData({ ...EVERY_SECTOR_GROUP, clientLimit: 5_000_000 }, options);

  const v1 = String(watcher.current());
  const before = new Map<string, string>();
  for (const call of [...PEER_CALLS, ...LOOKUPS]) {
    const name = typeof call === "string" ? call : call.path;
    const first = await rest(server.url, call);
    const again = await rest(server.url, call);
    t.equal(first.status, 200, `${name}: 200`);
    t.equal(first.version, v1, `${name}: version ${v1}`);
    t.equal(again.version, v1, `${name}: the kept answer says it too`);
    t.equal(again.body, first.body);
    t.equal((await rest(server.url, call, { "if-none-match": first.etag! })).version, v1, `${name}: and its 304`);
    before.set(name, first.body);
  }
  t.equal(await grpcVersion((o) => companies.getCompany({ id: 1n }, o)), v1, "gRPC metadata of a lookup");
  t.equal(await grpcVersion(peerOverGrpc), v1, "gRPC metadata of a peer-group answer");
  t.equal(await grpcVersion(peerOverGrpc), v1, "and of its kept answer");

  await importNext();
  await waitFor(() => String(watcher.current()) !== v1, "the new version");
  const v2 = String(watcher.current());
  t.equal(peerIndex.status().state, "ready", "the rebuild is held: the old snapshot answers");
  for (const call of PEER_CALLS) {
    const answer = await rest(server.url, call);
    t.equal(answer.version, v1, `${call.path} during the rebuild: version ${v1}, the snapshot's`);
    t.equal(answer.body, before.get(call.path), `${call.path}: and its figures are ${v1}'s`);
  }
  for (const call of LOOKUPS) t.equal((await rest(server.url, call)).version, v2, `${call} during the rebuild: ${v2}`);
  t.equal(await grpcVersion(peerOverGrpc), v1, "gRPC during the rebuild: the snapshot's version");
  t.equal(await grpcVersion((o) => companies.getCompany({ id: 1n }, o)), v2, "a gRPC lookup: the database's");

  releaseBuild();
  await waitFor(() => peerIndex.status().version === Number(v2), "the new snapshot");
  for (const call of PEER_CALLS) {
    const answer = await rest(server.url, call);
    const now = await rest(truth.url, call);
    t.equal(answer.version, v2, `${call.path} after the rebuild: ${v2}`);
    t.equal(now.version, v2, `${call.path} from SQL: ${v2}, read in its own statement`);
    t.equal(answer.body, now.body, `${call.path}: the figures are ${v2}'s`);
  }
  t.not(
    before.get(PEER_CALLS[0]!.path),
    (await rest(server.url, PEER_CALLS[0]!)).body,
    "the import changed the figures",
  );
  t.equal(await grpcVersion(peerOverGrpc), v2, "gRPC after the rebuild");
});
