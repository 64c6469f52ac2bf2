import t from "tap";
import http from "node:http";
import type { Knex } from "knex";
import { pino } from "pino";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { startMetricsServer } from "../../src/metrics/metrics-server.js";
import { NAMED_SERVICES, OTHER } from "../../src/metrics/operation-names.js";
import { createServiceMetrics } from "../../src/metrics/service-metrics.js";
import type { PeerIndex, PeerIndexStatus } from "../../src/peer-index/peer-index.js";
import { createApp } from "../../src/server/create-app.js";
import { startHttpServer } from "../../src/server/http-server.js";
import { createTestDatabase } from "../helpers/database.js";
import { scrape, sampleValue, type Sample } from "../helpers/prometheus-text.js";
import { anonymousAuthenticator } from "../helpers/server.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The server as run-server.ts wires it with METRICS_PORT set, both ports free loopback ones. */
async function startMeteredServer(
  t: Teardown,
  knex: Knex,
  options: { answerCacheBytes?: number; datasetVersion?: () => number | undefined; peerIndex?: PeerIndex } = {},
) {
  const log = pino({ level: "silent" });
  const metrics = createServiceMetrics({ knex, peerIndex: options.peerIndex });
  const app = createApp({ knex, authenticator: anonymousAuthenticator, log, metrics, ...options });
  const metricsServer = await startMetricsServer(metrics.registry, { port: 0, host: "127.0.0.1", log });
  const server = await startHttpServer(metrics.instrument(app), { port: 0, host: "127.0.0.1" });
  t.teardown(async () => {
    await server.close(1_000);
    await metricsServer.close();
  });
  return { url: server.url, metricsUrl: metricsServer.url, metrics };
}

const GET_COMPANY = "commercialpolicybenchmark.v2.CompanyService/GetCompany";
const COMPANY = "/commercialpolicybenchmark/v2.0/company";

/** The counter and the histogram's count of one label set: they must agree. */
function counted(samples: Sample[], labels: Record<string, string>): number {
  const total = sampleValue(samples, "cpb_requests_total", labels) ?? 0;
  const timed = sampleValue(samples, "cpb_request_duration_seconds_count", labels) ?? 0;
  const inf = sampleValue(samples, "cpb_request_duration_seconds_bucket", { ...labels, le: "+Inf" }) ?? 0;
  if (total !== timed || timed !== inf)
    throw new Error(`${JSON.stringify(labels)}: counted ${total}, timed ${timed}, +Inf ${inf}`);
  return total;
}

t.test(
  "every request is counted and timed by operation, protocol and code, over REST, gRPC, gRPC-Web and Connect",
  async (t) => {
    const { knex } = await createTestDatabase(t);
    await insertLookupFixture(knex);
    const { url, metricsUrl } = await startMeteredServer(t, knex);
    const before = await scrape(metricsUrl);
    t.equal(counted(before, { operation: GET_COMPANY }), 0, "nothing counted before any call");

    t.equal((await fetch(`${url}${COMPANY}/1001`)).status, 200);
    t.equal((await fetch(`${url}${COMPANY}/1001`)).status, 200);
    t.equal((await fetch(`${url}${COMPANY}/77`)).status, 404);
    t.equal((await fetch(`${url}${COMPANY}/abc`)).status, 400);
    t.equal((await fetch(`${url}${COMPANY}/1001`, { method: "DELETE" })).status, 405);
    t.equal((await fetch(`${url}/commercialpolicybenchmark/v2.0/nowhere/1001`)).status, 404);
    t.equal((await fetch(`${url}/healthz`)).status, 200);
    t.equal((await fetch(`${url}/readyz`)).status, 200);

    const connect = createClient(CompanyService, createConnectTransport({ baseUrl: url, httpVersion: "1.1" }));
    await connect.getCompany({ id: 1001n });
    const grpc = createClient(CompanyService, createGrpcTransport({ baseUrl: url }));
    const missing = await grpc.getCompany({ id: 77n }).catch((e: unknown) => ConnectError.from(e));
    t.equal((missing as ConnectError).code, Code.NotFound);
    await grpc.getCompany({ id: 1001n });
    const grpcWeb = createClient(CompanyService, createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1" }));
    await grpcWeb.getCompany({ id: 1001n });

    const after = await scrape(metricsUrl);
    const expected: [Record<string, string>, number][] = [
      [{ operation: GET_COMPANY, protocol: "rest", code: "ok" }, 2],
      [{ operation: GET_COMPANY, protocol: "rest", code: "not_found" }, 1],
      [{ operation: GET_COMPANY, protocol: "rest", code: "invalid_argument" }, 1],
      [{ operation: GET_COMPANY, protocol: "connect", code: "ok" }, 1],
      [{ operation: GET_COMPANY, protocol: "grpc", code: "not_found" }, 1],
      [{ operation: GET_COMPANY, protocol: "grpc", code: "ok" }, 1],
      [{ operation: GET_COMPANY, protocol: "grpc-web", code: "ok" }, 1],
      [{ operation: OTHER, protocol: "rest", code: "unimplemented" }, 1],
      [{ operation: OTHER, protocol: "rest", code: "not_found" }, 1],
      [{ operation: "healthz", protocol: "rest", code: "ok" }, 1],
      [{ operation: "readyz", protocol: "rest", code: "ok" }, 1],
    ];
    for (const [labels, count] of expected) t.equal(counted(after, labels), count, JSON.stringify(labels));

    const operations = new Set(after.filter((s) => s.name === "cpb_requests_total").map((s) => s.labels.operation));
    const rpcNames = new Set(NAMED_SERVICES.flatMap((s) => s.methods.map((m) => `${s.typeName}/${m.name}`)));
    t.same(
      [...operations].filter((op) => !rpcNames.has(op!) && !["healthz", "readyz", OTHER].includes(op!)),
      [],
      "operations come from a bounded set: no path, no id",
    );
    t.equal(sampleValue(after, "cpb_requests_in_flight"), 0, "none in flight once all are answered");
    t.ok(
      (sampleValue(after, "cpb_request_duration_seconds_sum", {
        operation: GET_COMPANY,
        protocol: "rest",
        code: "ok",
      }) ?? 0) > 0,
      "durations add up",
    );
  },
);

t.test("a request whose body is still arriving is in flight until its response closes", async (t) => {
  const { knex } = await createTestDatabase(t);
  const { url, metricsUrl } = await startMeteredServer(t, knex);
  const inFlight = async () => sampleValue(await scrape(metricsUrl), "cpb_requests_in_flight");
  t.equal(await inFlight(), 0);

  const req = http.request(`${url}/commercialpolicybenchmark/v2.0/assessment/getTotalProgramCount`, {
    method: "POST",
    headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
  });
  req.write('{"naics": ');
  t.equal(await waitForValue(inFlight, 1), 1, "counted while its body arrives");
  req.end('"52"}');
  t.equal(await answered, 400, "answered (the database is empty)");
  t.equal(await waitForValue(inFlight, 0), 0, "back to none once it closed");
});

t.test("the pool, the answer cache, the gate, the dataset version and Node's own metrics are there", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const { url, metricsUrl, metrics } = await startMeteredServer(t, knex, {
    answerCacheBytes: 1024 * 1024,
    datasetVersion: () => 7,
  });

  const first = await scrape(metricsUrl);
  t.equal(sampleValue(first, "cpb_db_pool_max_connections"), 4, "the pool's max (createTestDatabase's poolMax)");
  t.type(sampleValue(first, "cpb_db_pool_connections", { state: "used" }), "number");
  t.type(sampleValue(first, "cpb_db_pool_connections", { state: "free" }), "number");
  t.equal(sampleValue(first, "cpb_db_pool_pending_acquires"), 0);
  t.equal(
    sampleValue(first, "cpb_dataset_version"),
    undefined,
    "no dataset version before the watcher reads one (0 is a real version)",
  );
  t.equal(sampleValue(first, "cpb_dataset_versions_seen_total"), 0);
  t.equal(sampleValue(first, "cpb_peer_index_version"), undefined, "no peer-index metrics with the index off");
  t.equal(sampleValue(first, "cpb_admission_running"), 0);
  t.equal(sampleValue(first, "cpb_admission_queued"), 0);
  t.equal(sampleValue(first, "cpb_admission_refused_total"), 0);
  t.type(sampleValue(first, "process_cpu_user_seconds_total"), "number", "Node's default metrics");
  t.type(sampleValue(first, "nodejs_heap_size_used_bytes"), "number");

  for (let i = 0; i < 3; i++) t.equal((await fetch(`${url}${COMPANY}/1001`)).status, 200);
  const etag = (await fetch(`${url}${COMPANY}/1001`)).headers.get("etag")!;
  t.equal((await fetch(`${url}${COMPANY}/1001`, { headers: { "if-none-match": etag } })).status, 304);
  metrics.datasetVersionSeen(7);

  const after = await scrape(metricsUrl);
  t.equal(sampleValue(after, "cpb_answer_cache_misses_total"), 1, "the first request computed its answer");
  t.equal(sampleValue(after, "cpb_answer_cache_hits_total"), 4, "the others found it kept");
  t.equal(sampleValue(after, "cpb_answer_cache_not_modified_total"), 1);
  t.equal(sampleValue(after, "cpb_answer_cache_entries"), 1);
  t.ok(sampleValue(after, "cpb_answer_cache_bytes")! > 0);
  t.equal(
    counted(after, { operation: GET_COMPANY, protocol: "rest", code: "ok" }),
    5,
    "kept answers and the 304 are counted as ok",
  );
  t.equal(sampleValue(after, "cpb_dataset_version"), 7);
  t.equal(sampleValue(after, "cpb_dataset_versions_seen_total"), 1);
  t.ok(Math.abs(sampleValue(after, "cpb_dataset_version_seen_timestamp_seconds")! - Date.now() / 1000) < 60);
  t.ok(
    sampleValue(after, "cpb_db_pool_connections", { state: "free" })! >= 1,
    "the pool opened a connection for the lookup",
  );
});

t.test("the peer index's status: state, version, bytes, build time, rows", async (t) => {
  const { knex } = await createTestDatabase(t);
  let status: PeerIndexStatus = {
    state: "building",
    version: null,
    programs: 0,
    losses: 0,
    bytes: 0,
    buildMs: 0,
    datasetVersion: 3,
    scanThread: "off",
  };
  const peerIndex: PeerIndex = {
    current: () => undefined,
    datasetChanged: () => {},
    ready: () => status.version !== null,
    status: () => status,
    scanThread: () => undefined,
    stop: () => {},
  };
  const { metricsUrl } = await startMeteredServer(t, knex, { peerIndex });

  const building = await scrape(metricsUrl);
  t.equal(sampleValue(building, "cpb_peer_index_state", { state: "building" }), 1);
  t.equal(sampleValue(building, "cpb_peer_index_state", { state: "ready" }), 0);
  t.equal(sampleValue(building, "cpb_peer_index_version"), undefined, "no version before the first snapshot");

  status = {
    state: "ready",
    version: 3,
    programs: 200,
    losses: 40,
    bytes: 123_456,
    buildMs: 1_500,
    datasetVersion: 3,
    scanThread: "off",
  };
  const ready = await scrape(metricsUrl);
  t.equal(sampleValue(ready, "cpb_peer_index_state", { state: "ready" }), 1);
  t.equal(sampleValue(ready, "cpb_peer_index_state", { state: "building" }), 0);
  t.equal(sampleValue(ready, "cpb_peer_index_version"), 3);
  t.equal(sampleValue(ready, "cpb_peer_index_bytes"), 123_456);
  t.equal(sampleValue(ready, "cpb_peer_index_build_seconds"), 1.5);
  t.equal(sampleValue(ready, "cpb_peer_index_programs"), 200);
  t.equal(sampleValue(ready, "cpb_peer_index_losses"), 40);
});

t.test(
  "each server counts its own requests (a registry per server), and the metrics port serves /metrics only",
  async (t) => {
    const { knex } = await createTestDatabase(t);
    const one = await startMeteredServer(t, knex);
    const two = await startMeteredServer(t, knex);
    await fetch(`${one.url}/healthz`);
    await fetch(`${one.url}/healthz`);
    await fetch(`${two.url}/healthz`);
    t.equal(sampleValue(await scrape(one.metricsUrl), "cpb_requests_total", { operation: "healthz" }), 2);
    t.equal(sampleValue(await scrape(two.metricsUrl), "cpb_requests_total", { operation: "healthz" }), 1);

    const res = await fetch(one.metricsUrl);
    t.match(res.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
    const base = one.metricsUrl.replace(/\/metrics$/, "");
    t.equal((await fetch(`${base}/`)).status, 404);
    t.equal((await fetch(`${base}/metrics`, { method: "POST" })).status, 405);
    t.equal((await fetch(`${one.url}/metrics`)).status, 404, "never on the API's port");
  },
);

/** Polls until `read` gives `wanted` (or 5 s pass), and returns what it read last. */
async function waitForValue(read: () => Promise<number | undefined>, wanted: number): Promise<number | undefined> {
  let value: number | undefined;
  for (let waited = 0; waited < 5_000; waited += 20) {
    value = await read();
    if (value === wanted) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return value;
}
