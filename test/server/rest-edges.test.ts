import t from "tap";
import { connect } from "node:net";
import knexFactory from "knex";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { Health, HealthCheckResponse_ServingStatus } from "../../gen/health/v1/health_pb.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";

const P = "/commercialpolicybenchmark/v2.0";

t.test("REST errors are problem documents with the right status", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method, body, headers });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  const unknown = await call("GET", `${P}/nowhere`);
  t.equal(unknown.status, 404);
  t.equal(unknown.headers.get("content-type"), "application/problem+json");
  t.match(unknown.body, { status: 404, code: "not_found", title: "Not Found", detail: `no operation at ${P}/nowhere` });

  const wrongMethod = await call("DELETE", `${P}/lossdetails/getlimitadequacydata`);
  t.equal(wrongMethod.status, 405);
  t.equal(wrongMethod.headers.get("allow"), "GET, POST");
  t.match(wrongMethod.body, { status: 405, code: "unimplemented", title: "Method Not Allowed" });

  // A body that arrives in many chunks is read whole: the same answer as its short form.
  const group =
    '"naics": "52", "coverageId": 1, "exposureType": "Revenues", "exposureRangeLow": 0, "exposureRangeHigh": 1000000';
  const short = await call("POST", `${P}/assessment/getTotalProgramCount`, `{${group}}`);
  const padded = await call("POST", `${P}/assessment/getTotalProgramCount`, `{${" ".repeat(900 * 1024)}${group}}`);
  t.same(padded, { ...short, headers: padded.headers }, "a 900 KiB body");
  t.equal(padded.status, short.status);

  const tooLarge = await call(
    "POST",
    `${P}/assessment/getTotalProgramCount`,
    `{"naics": "${"5".repeat(1024 * 1024)}"}`,
  );
  t.equal(tooLarge.status, 413);
  t.match(tooLarge.body, { code: "resource_exhausted" });

  const malformed = await call("POST", `${P}/assessment/getTotalProgramCount`, `{"naics": [52`);
  t.equal(malformed.status, 400);
  t.match(malformed.body, { code: "invalid_argument", errors: [{ field: "body" }] });

  const notObject = await call("POST", `${P}/assessment/getTotalProgramCount`, `[1, 2]`);
  t.match(notObject.body, { status: 400, errors: [{ field: "body", message: "must be a JSON object" }] });

  const formBody = await call("POST", `${P}/assessment/getTotalProgramCount`, `{"naics":["52"],"coverageId":1}`, {
    "content-type": "application/x-www-form-urlencoded",
  });
  t.equal(formBody.status, 400, "JSON under a form content type is read as JSON");
  t.same(formBody.body.errors, [
    { field: "coverageId", message: "1 is not a known coverage" }, // the database is empty
    { field: "exposureRangeLow", message: "is required" },
    { field: "exposureRangeHigh", message: "is required" },
  ]);

  const formPairs = await call(
    "POST",
    `${P}/assessment/getTotalProgramCount`,
    `coverageId=x&naics=52&exposureRangeLow=1&exposureRangeHigh=2`,
  );
  t.equal(formPairs.status, 400, "key=value bodies are read like a query string");
  t.same(formPairs.body.errors, [{ field: "coverageId", message: '"x" is not an integer' }]);

  const trailing = await call(
    "POST",
    `${P}/assessment/getTotalProgramCount`,
    `coverageId=1&&naics=52&exposureRangeLow=0&exposureRangeHigh=1&flag&`,
  );
  t.same(
    trailing.body.errors,
    [{ field: "coverageId", message: "1 is not a known coverage" }],
    "any key=value body, empty pairs included",
  );

  const doubleSlash = await call("GET", `/${P}/company/x`);
  t.equal(doubleSlash.status, 400, "a leading // is a path, not a host");

  const badId = await call("GET", `${P}/company/x`);
  t.same(
    badId.body,
    {
      status: 400,
      code: "invalid_argument",
      title: "Bad Request",
      detail: "1 input is invalid",
      errors: [{ field: "id", message: '"x" is not an integer' }],
    },
    "problem kinds stay inside",
  );
});

t.test("every response carries X-Request-Id, and each request writes one log line", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const logLines: Record<string, unknown>[] = [];
  const server = await startTestServer(t, knex, { logLines });

  const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  const own = await fetch(`${server.url}${P}/company/1001`, {
    headers: { "x-request-id": "abc.DEF_1-2", authorization: "Bearer secret-token", traceparent },
  });
  t.equal(own.headers.get("x-request-id"), "abc.DEF_1-2", "a well-formed caller id is kept");
  const fresh = await fetch(`${server.url}${P}/company/1001`, { headers: { "x-request-id": "no spaces allowed" } });
  t.match(fresh.headers.get("x-request-id"), /^[0-9a-f-]{36}$/, "anything else gets a new id");
  const health = await fetch(`${server.url}/healthz`);
  t.ok(health.headers.get("x-request-id"));

  await new Promise((resolve) => setTimeout(resolve, 50));
  const line = logLines.find((l) => l.requestId === "abc.DEF_1-2");
  t.match(line, {
    msg: "request",
    method: "GET",
    path: `${P}/company/1001`,
    protocol: "rest",
    status: 200,
    code: "ok",
    subject: "anonymous",
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  });
  t.notOk("traceId" in logLines.find((l) => l.requestId !== "abc.DEF_1-2")!, "no traceparent, no trace id");
  t.type(line?.durationMs, "number");
  t.notMatch(JSON.stringify(logLines), /secret-token/, "the token is never logged");
  t.equal(line?.level, 30, "at info");
});

t.test("a 503 the service chose is logged as a warning, not an error", async (t) => {
  const unreachable = knexFactory({
    client: "pg",
    connection: "postgres://postgres@127.0.0.1:1/none",
    pool: { min: 0, max: 1 },
  });
  t.teardown(() => unreachable.destroy());
  const logLines: Record<string, unknown>[] = [];
  const server = await startTestServer(t, unreachable, { logLines });
  const away = await fetch(`${server.url}${P}/company/1001`, { headers: { "x-request-id": "db-away" } });
  t.equal(away.status, 503);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.match(
    logLines.find((l) => l.requestId === "db-away" && l.msg === "request"),
    { status: 503, code: "unavailable", level: 40 },
  );
});

t.test("a caller that leaves in the middle of its body is no error of the server's", async (t) => {
  const { knex } = await createTestDatabase(t);
  const logLines: Record<string, unknown>[] = [];
  const server = await startTestServer(t, knex, { logLines });
  const socket = connect(server.port, "127.0.0.1");
  socket.on("error", () => undefined);
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST ${P}/assessment/getTotalProgramCount HTTP/1.1\r\nhost: x\r\nx-request-id: left-mid-body\r\n` +
      `content-type: application/json\r\ncontent-length: 100\r\n\r\n{"naics": "52",`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
  let line: Record<string, unknown> | undefined;
  for (let i = 0; i < 100 && !line; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    line = logLines.find((l) => l.requestId === "left-mid-body" && l.msg === "request");
  }
  t.match(line, { aborted: true }, "its line says it was not answered whole");
  t.equal(
    logLines.filter((l) => l.level === 50).length,
    0,
    "nothing at error level: " + JSON.stringify(logLines.filter((l) => l.level === 50)),
  );
});

t.test("health: /healthz always, /readyz and gRPC health when the database answers", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const healthz = await fetch(`${server.url}/healthz`);
  t.equal(healthz.status, 200);
  const head = await fetch(`${server.url}/healthz`, { method: "HEAD" });
  t.equal(head.status, 200, "HEAD too");
  t.equal(await head.text(), "", "without a body");
  const readyz = await fetch(`${server.url}/readyz`);
  t.equal(readyz.status, 200);
  const { eventLoopDelayMs, ...rest } = (await readyz.json()) as { eventLoopDelayMs: Record<string, number> };
  t.same(
    rest,
    {
      status: "ready",
      reasons: [],
      datasetVersion: null,
      peerIndex: { state: "off" },
      answerCache: null,
      admission: { running: 0, queued: 0, refused: 0, serviceMs: 0, turnEveryMs: 0 },
      tokenCache: null,
      disclosure: { rule: "none" },
    },
    "no version watcher, peer index, answer cache or token cache in this test; no disclosure rule",
  );
  t.same(Object.keys(eventLoopDelayMs), ["p50", "p99", "max"], "the event loop's delay, in ms");

  const serving = await callWithGrpcJs(server.url, Health.method.check, { service: "" });
  t.equal(serving.status, HealthCheckResponse_ServingStatus.SERVING, "grpc.health.v1 answers without a token");
  const company = await callWithGrpcJs(server.url, Health.method.check, {
    service: "commercialpolicybenchmark.v2.CompanyService",
  });
  t.equal(company.status, HealthCheckResponse_ServingStatus.SERVING);
  const unknown = await callWithGrpcJs(server.url, Health.method.check, { service: "nope" }).catch(
    (e: { code: number }) => e,
  );
  t.equal((unknown as { code: number }).code, 5, "unknown service: NOT_FOUND");
});

t.test("bytes that are not HTTP, or a broken HTTP/2 preface, cost one connection only", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  for (const garbage of [
    "\x00\x01\x02 not http at all\r\n\r\n",
    "PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n",
    "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00garbage-frames",
  ]) {
    await new Promise<void>((resolve) => {
      const socket = connect(server.port, "127.0.0.1", () => socket.end(garbage));
      socket.on("error", () => resolve());
      socket.on("close", () => resolve());
      socket.resume();
    });
  }
  const after = await fetch(`${server.url}/healthz`);
  t.equal(after.status, 200, "the server still answers");
});
