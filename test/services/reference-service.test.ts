// The reference data of the broker console's pickers (ReferenceService): what an imported
// data set holds, over REST, gRPC and Connect with a real token; refused without one;
// read once per dataset version and never kept past it.
import t from "tap";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pino } from "pino";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { ReferenceDataSchema, ReferenceService } from "../../gen/commercialpolicybenchmark/v2/reference_pb.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createOperationNamer, NAMED_SERVICES } from "../../src/metrics/operation-names.js";
import { createDatasetVersionWatcher } from "../../src/store/dataset-version-watcher.js";
import { readDatasetVersion } from "../../src/store/reference-data.js";
import { messageJson } from "../../src/transcoding/json-writer.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { createTestDatabase } from "../helpers/database.js";
import { waitFor } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";

const PATH = "/commercialpolicybenchmark/v2.0/reference/getreferencedata";

/** Coverages with and without LOBs; companies of 2-, 3-, 4- and 6-digit codes, one without, codes with no title. */
const FIXTURE = {
  "coverages.csv": "coverage_id,name\n3,Cyber\n1,Directors & Officers\n2,Crime\n",
  "lines_of_business.csv": "line_of_business_id,coverage_id,name\n12,1,Side B\n11,1,Side A\n31,3,First Party\n",
  "companies.csv": [
    "company_id,company_name,organization_type,naics",
    "1,Acme Insurance,PUB,524126",
    "2,Bank Holding,PRV,52",
    "3,Food Works,PSB,311",
    "4,Charity,NFP,",
    "5,Old Catalog Store,PRV,454110", // 454 is a 2017 subsector, retired in 2022: no title
    "6,Unclassified,PUB,99", // no sector 99 in NAICS: no title
    "7,Aero Parts,PUB,336411",
    "8,Agency,PSB,5242",
    "",
  ].join("\n"),
};

const EXPECTED = {
  coverages: [
    {
      coverageId: 1,
      name: "Directors & Officers",
      linesOfBusiness: [
        { lineOfBusinessId: 11, name: "Side A" },
        { lineOfBusinessId: 12, name: "Side B" },
      ],
    },
    { coverageId: 2, name: "Crime", linesOfBusiness: [] },
    { coverageId: 3, name: "Cyber", linesOfBusiness: [{ lineOfBusinessId: 31, name: "First Party" }] },
  ],
  organizationTypes: [
    { code: "NFP", name: null },
    { code: "PRV", name: "Private" },
    { code: "PSB", name: null },
    { code: "PUB", name: "Public" },
  ],
  naicsSectors: [
    { code: "31", name: "Manufacturing", subsectors: [{ code: "311", name: "Food Manufacturing" }] },
    {
      code: "33",
      name: "Manufacturing",
      subsectors: [{ code: "336", name: "Transportation Equipment Manufacturing" }],
    },
    { code: "45", name: "Retail Trade", subsectors: [{ code: "454", name: null }] },
    {
      code: "52",
      name: "Finance and Insurance",
      subsectors: [{ code: "524", name: "Insurance Carriers and Related Activities" }],
    },
    { code: "99", name: null, subsectors: [] },
  ],
  datasetVersion: 1,
};

async function writeDataset(t: Parameters<typeof createTempDir>[0], files: Record<string, string>): Promise<string> {
  const dir = await createTempDir(t, "cpb-reference-");
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  return dir;
}

async function importedDatabase(t: Parameters<typeof createTempDir>[0]) {
  const database = await createTestDatabase(t);
  await importDataset(database.knex, await writeDataset(t, FIXTURE));
  return database;
}

/** Merges one more coverage into the data set, as `cpb import` of a coverages.csv would. */
async function importCoverage(
  t: Parameters<typeof createTempDir>[0],
  knex: Parameters<typeof importDataset>[0],
  id: number,
  name: string,
) {
  await importDataset(knex, await writeDataset(t, { "coverages.csv": `coverage_id,name\n${id},${name}\n` }));
}

t.test("the imported data over REST, gRPC and Connect, with a real token", async (t) => {
  const { knex } = await importedDatabase(t);
  const { server, authorization } = await startAuthenticatedServer(t, knex);

  const rest = await fetch(`${server.url}${PATH}`, { headers: { authorization } });
  t.equal(rest.status, 200);
  t.match(rest.headers.get("content-type"), /^application\/json/);
  t.same(
    await rest.json(),
    EXPECTED,
    "REST: the data's coverages, LOBs, organization types and NAICS codes, explicit nulls",
  );
  const unknown = await fetch(`${server.url}${PATH}?coverageId=1&naics=52&surprise=1`, { headers: { authorization } });
  t.same(
    [unknown.status, await unknown.json()],
    [200, EXPECTED],
    "unknown query parameters are ignored, as by every operation",
  );

  const transports: [string, Transport][] = [
    ["gRPC", createGrpcTransport({ baseUrl: server.url })],
    ["Connect", createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" })],
    ["Connect JSON", createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", useBinaryFormat: false })],
  ];
  for (const [protocol, transport] of transports) {
    const answer = await createClient(ReferenceService, transport).getReferenceData({}, { headers: { authorization } });
    t.same(
      JSON.parse(Buffer.concat(messageJson(ReferenceDataSchema, answer).chunks()).toString("utf8")),
      EXPECTED,
      protocol,
    );
    t.equal(
      answer.organizationTypes.find((type) => type.code === "PSB")?.name,
      undefined,
      `${protocol}: a code without a name has it unset`,
    );
  }
});

t.test("refused without a token, over every protocol", async (t) => {
  const { knex } = await importedDatabase(t);
  const { server } = await startAuthenticatedServer(t, knex);

  const rest = await fetch(`${server.url}${PATH}`);
  t.equal(rest.status, 401);
  t.match(rest.headers.get("www-authenticate"), /^Bearer/);
  const forged = await fetch(`${server.url}${PATH}`, { headers: { authorization: "Bearer not-a-token" } });
  t.equal(forged.status, 401, "nor with a token that is not one");
  for (const transport of [
    createGrpcTransport({ baseUrl: server.url }),
    createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
  ]) {
    const error = await createClient(ReferenceService, transport)
      .getReferenceData({})
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    t.equal(error?.code, Code.Unauthenticated);
  }
});

t.test("an import that adds a coverage changes the answer: no answer outlives its dataset version", async (t) => {
  const { knex } = await importedDatabase(t);
  const server = await startTestServer(t, knex);
  const connect = createClient(ReferenceService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
  const restCoverages = async () =>
    ((await (await fetch(`${server.url}${PATH}`)).json()) as typeof EXPECTED).coverages.map((c) => c.name);
  t.same(await restCoverages(), ["Directors & Officers", "Crime", "Cyber"]);

  await importCoverage(t, knex, 4, "Employment Practices");
  t.same(
    await restCoverages(),
    ["Directors & Officers", "Crime", "Cyber", "Employment Practices"],
    "REST, at once after the import",
  );
  const imported = await connect.getReferenceData({});
  t.same(
    imported.coverages.map((c) => c.coverageId),
    [1, 2, 3, 4],
    "Connect",
  );
  t.equal(imported.datasetVersion, 2n, "the import's dataset version");

  // Read once per version: a change made without a new version is not seen...
  await knex("coverages").where({ coverage_id: 4 }).update({ name: "Renamed behind the version's back" });
  t.same(
    (await connect.getReferenceData({})).coverages.at(-1)?.name,
    "Employment Practices",
    "the answer of the version is kept",
  );
  // ...and the next version is read again.
  await knex("dataset_version").increment("version", 1);
  t.same((await connect.getReferenceData({})).coverages.at(-1)?.name, "Renamed behind the version's back");
});

t.test(
  "with the version watcher and the answer cache, as cpb serve runs: the new version's answer once it is heard",
  async (t) => {
    const { knex, url } = await importedDatabase(t);
    const watcher = createDatasetVersionWatcher({ connectionString: url, log: pino({ level: "silent" }) });
    t.teardown(() => watcher.stop());
    await watcher.start();
    const { server, authorization } = await startAuthenticatedServer(t, knex, {
      datasetVersion: () => watcher.current(),
      answerCacheBytes: 1024 * 1024,
    });
    const grpc = createClient(ReferenceService, createGrpcTransport({ baseUrl: server.url }));
    const rest = () => fetch(`${server.url}${PATH}`, { headers: { authorization } });

    const before = await rest();
    const etag = before.headers.get("etag")!;
    t.ok(etag, "an ETag");
    t.equal(
      (await fetch(`${server.url}${PATH}`, { headers: { authorization, "if-none-match": etag } })).status,
      304,
      "revalidated while the data stands",
    );
    t.equal((await grpc.getReferenceData({}, { headers: { authorization } })).coverages.length, 3);
    t.equal((await grpc.getReferenceData({}, { headers: { authorization } })).coverages.length, 3, "kept for gRPC too");

    const seen = watcher.current()!;
    await importCoverage(t, knex, 4, "Employment Practices");
    await waitFor(() => watcher.current()! > seen, "the import's version notice");
    const after = await rest();
    t.not(after.headers.get("etag"), etag, "a new ETag");
    t.same(
      ((await after.json()) as typeof EXPECTED).coverages.map((c) => c.coverageId),
      [1, 2, 3, 4],
      "REST: the new coverage",
    );
    t.same(
      (await grpc.getReferenceData({}, { headers: { authorization } })).coverages.map((c) => c.coverageId),
      [1, 2, 3, 4],
      "gRPC: the new coverage",
    );
  },
);

t.test("the reference data is read again when the dataset version changes (an import), and only then", async (t) => {
  // With the watcher's version (cpb serve), and without one (the version read per call).
  for (const watched of [true, false]) {
    const { knex } = await importedDatabase(t);
    let heard = await readDatasetVersion(knex);
    const server = await startTestServer(t, knex, watched ? { datasetVersion: () => heard } : {});
    const connect = createClient(ReferenceService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    let reads = 0;
    const onQuery = (query: { sql: string }) => void (query.sql.includes("from coverages") && reads++);
    knex.on("query", onQuery);
    t.teardown(() => void knex.off("query", onQuery));
    const label = watched ? "with the watcher's version" : "with the version read per call";

    for (let i = 0; i < 3; i++) t.equal((await connect.getReferenceData({})).coverages.length, 3);
    t.equal(reads, 1, `${label}: read once for three calls of one version`);

    await importCoverage(t, knex, 4, "Employment Practices");
    heard = await readDatasetVersion(knex);
    reads = 0; // the import's own statements
    const answers = [
      await connect.getReferenceData({}),
      await connect.getReferenceData({}),
      await connect.getReferenceData({}),
    ];
    t.same(
      answers.map((answer) => answer.coverages.length),
      [4, 4, 4],
      `${label}: the imported coverage`,
    );
    t.same(
      answers.map((answer) => answer.datasetVersion),
      [2n, 2n, 2n],
    );
    t.equal(reads, 1, `${label}: read again once, for the new version`);
  }
});

t.test("concurrent calls of a new version share one read", async (t) => {
  const { knex } = await importedDatabase(t);
  const version = await readDatasetVersion(knex);
  const server = await startTestServer(t, knex, { datasetVersion: () => version });
  const statements: string[] = [];
  const onQuery = (query: { sql: string }) => void statements.push(query.sql);
  knex.on("query", onQuery);
  t.teardown(() => void knex.off("query", onQuery));
  const connect = createClient(ReferenceService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
  const answers = await Promise.all(Array.from({ length: 8 }, () => connect.getReferenceData({})));
  t.ok(answers.every((answer) => answer.coverages.length === 3));
  t.equal(statements.filter((sql) => sql.includes("from coverages")).length, 1, "one read for eight calls");
  await connect.getReferenceData({});
  t.equal(statements.length, 1, "none for a call of the same version, not even of the version (the watcher's is used)");
});

t.test("the caller who started the shared read leaving does not end it for the others", async (t) => {
  const { knex } = await importedDatabase(t);
  const version = await readDatasetVersion(knex);
  const server = await startTestServer(t, knex, { datasetVersion: () => version });
  const connect = createClient(ReferenceService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
  // The read waits behind a lock, so that its first caller can leave while it runs.
  const lock = await knex.transaction();
  await lock.raw("lock table coverages in access exclusive mode");
  const statements: string[] = [];
  const onQuery = (query: { sql: string }) => void statements.push(query.sql);
  knex.on("query", onQuery);
  t.teardown(() => void knex.off("query", onQuery));
  const leaving = new AbortController();
  const first = connect.getReferenceData({}, { signal: leaving.signal });
  await waitFor(() => statements.some((sql) => sql.includes("from coverages")), "the shared read to start");
  const second = connect.getReferenceData({});
  await new Promise((resolve) => setTimeout(resolve, 100));
  leaving.abort();
  await t.rejects(first, { code: Code.Canceled });
  await new Promise((resolve) => setTimeout(resolve, 200)); // a cancel would have reached PostgreSQL by now
  await lock.commit();
  t.same((await second).coverages.length, 3, "the second caller is answered from the read the first began");
});

t.test("the reflection and metrics lists name the service", async (t) => {
  t.ok(NAMED_SERVICES.includes(ReferenceService), "NAMED_SERVICES, shared by reflection and metrics");
  const { knex } = await createTestDatabase(t);
  const { server, authorization } = await startAuthenticatedServer(t, knex);
  const reflection = createClient(ServerReflection, createGrpcTransport({ baseUrl: server.url }));
  async function* asked() {
    yield { messageRequest: { case: "listServices" as const, value: "" } };
    yield {
      messageRequest: {
        case: "fileContainingSymbol" as const,
        value: "commercialpolicybenchmark.v2.ReferenceService.GetReferenceData",
      },
    };
  }
  const answers = [];
  for await (const answer of reflection.serverReflectionInfo(asked(), { headers: { authorization } }))
    answers.push(answer.messageResponse);
  const [listed, file] = answers;
  t.equal(listed?.case, "listServicesResponse");
  t.ok(
    (listed?.value as { service: { name: string }[] }).service.some(
      (s) => s.name === "commercialpolicybenchmark.v2.ReferenceService",
    ),
    "reflection lists it",
  );
  t.equal(file?.case, "fileDescriptorResponse");
  const first = (file?.value as { fileDescriptorProto: Uint8Array[] }).fileDescriptorProto[0]!;
  t.equal(
    fromBinary(FileDescriptorProtoSchema, first).name,
    "commercialpolicybenchmark/v2/reference.proto",
    "and describes it",
  );

  const name = createOperationNamer();
  t.equal(name("GET", PATH), "commercialpolicybenchmark.v2.ReferenceService/GetReferenceData", "REST path");
  t.equal(
    name("POST", "/commercialpolicybenchmark.v2.ReferenceService/GetReferenceData"),
    "commercialpolicybenchmark.v2.ReferenceService/GetReferenceData",
    "RPC path",
  );
});
