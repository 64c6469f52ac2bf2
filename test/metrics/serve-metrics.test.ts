import t from "tap";
import { spawn } from "node:child_process";
import { freePort } from "../../src/dev/free-port.js";
import { CPB_BIN } from "../bench/peer/cpb-command.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";
import { createTestDatabase } from "../helpers/database.js";
import { scrape, sampleValue } from "../helpers/prometheus-text.js";
import { startServeProcess } from "../helpers/serve-process.js";

const GET_COMPANY = "commercialpolicybenchmark.v2.CompanyService/GetCompany";

t.test(
  "cpb serve with METRICS_PORT: /metrics there with no token, scraped through the drain, closed with the server",
  async (t) => {
    const { knex, url } = await createTestDatabase(t);
    await insertLookupFixture(knex);
    const metricsPort = await freePort();
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const { child, base, token, exited, stderr } = await startServeProcess(t, url, {
      METRICS_PORT: String(metricsPort),
      DRAIN_PERIOD_MS: "1000",
    });

    const answer = await fetch(`${base}/commercialpolicybenchmark/v2.0/company/1001`, {
      headers: { authorization: `Bearer ${token}` },
    });
    t.equal(answer.status, 200);
    t.equal((await fetch(`${base}/commercialpolicybenchmark/v2.0/company/1001`)).status, 401);
    const samples = await scrape(metricsUrl);
    t.equal(sampleValue(samples, "cpb_requests_total", { operation: GET_COMPANY, protocol: "rest", code: "ok" }), 1);
    t.equal(
      sampleValue(samples, "cpb_requests_total", { operation: GET_COMPANY, protocol: "rest", code: "unauthenticated" }),
      1,
    );
    t.ok(
      sampleValue(samples, "cpb_requests_total", { operation: "readyz", protocol: "rest", code: "ok" })! >= 1,
      "start-up's probes",
    );
    t.equal(sampleValue(samples, "cpb_dataset_version"), 0, "a migrated database, no import yet");
    t.equal(sampleValue(samples, "cpb_dataset_versions_seen_total"), 1);
    t.equal(sampleValue(samples, "cpb_peer_index_state", { state: "ready" }), 1, "the peer index is on by default");
    t.equal(sampleValue(samples, "cpb_peer_index_version"), 0);
    t.equal(sampleValue(samples, "cpb_db_pool_max_connections"), 10);

    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.equal((await fetch(`${base}/readyz`)).status, 503, "draining");
    t.type(sampleValue(await scrape(metricsUrl), "cpb_requests_in_flight"), "number", "still scraped during the drain");
    t.equal(await exited, 0, stderr());
    const after = await fetch(metricsUrl).then(
      (res) => res.status,
      (error: Error) => error.message,
    );
    t.equal(after, "fetch failed", "the metrics port closed with the server");
  },
);

t.test("a bad METRICS_PORT stops cpb serve with status 2, naming the variable", async (t) => {
  const child = spawn(process.execPath, [CPB_BIN, "serve"], {
    env: {
      ...process.env,
      METRICS_PORT: "metrics",
      DATABASE_URL: "postgres://127.0.0.1:1/none",
      AUTH_ISSUER: "http://127.0.0.1:1",
      AUTH_AUDIENCE: "a",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  t.equal(code, 2);
  t.match(stderr, 'METRICS_PORT must be a port number (0-65535), not "metrics"');
});
