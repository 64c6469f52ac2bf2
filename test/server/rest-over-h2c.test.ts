// REST over cleartext HTTP/2 (issue 48): every operation of the served /openapi.json,
// with every kind of request a walk of it makes (a 200, its 304, each required input
// left out, malformed JSON, no token, an unknown record, a body over 1 MiB), and POST
// bodies with and without content-length, in one piece or in many, small and near the
// limit, gzip asked for or not: the same request over HTTP/1.1 and over h2c gets the
// same status, the same headers (but those of the connection) and the same bytes.
// REST POST over h2c once hung for ever: the body reader waited for an HTTP/1.1-only
// signal. Behind an HTTP/2 balancer (HAProxy `proto h2`) every POST did.
import http from "node:http";
import http2 from "node:http2";
import t from "tap";
import { createTestDatabase } from "../helpers/database.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { FIXTURE_AS_OF, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { documentedOperations } from "../helpers/openapi-operations.js";
import { h2Exchange, http1Exchange, type RawAnswer } from "../helpers/raw-exchange.js";
import { restWalkCases } from "../helpers/rest-walk-cases.js";

type Json = { [key: string]: unknown };

/** Headers of the connection, not of the answer: HTTP/2 has none of them (RFC 9113, 8.2.2). */
const CONNECTION_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "date"]);

const answerHeaders = (answer: RawAnswer) =>
  Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !CONNECTION_HEADERS.has(name)));

t.test("every REST operation answers over h2c exactly as over HTTP/1.1", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const { server, authorization } = await startAuthenticatedServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    datasetVersion: () => 1,
  });
  const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const session = http2.connect(server.url);
  t.teardown(() => session.destroy());

  const operations = documentedOperations(document);
  t.ok(operations.length >= 13, `every operation of the REST face (${operations.length})`);
  let compared = 0;
  for (const op of operations) {
    // The 200's ETag, for the walk's 304.
    const complete = await http1Exchange(server.url, agent, restWalkCases(op, authorization, undefined)[0]!.request);
    for (const { name, request, status } of restWalkCases(op, authorization, complete.headers.etag)) {
      const overHttp1 = await http1Exchange(server.url, agent, request);
      const overH2c = await h2Exchange(session, request);
      t.equal(overHttp1.status, status, `${name}: ${status} over HTTP/1.1`);
      t.equal(overH2c.status, status, `${name}: ${status} over h2c`);
      t.same(answerHeaders(overH2c), answerHeaders(overHttp1), `${name}: the same headers`);
      t.ok(overH2c.body.equals(overHttp1.body), `${name}: the same bytes (${overH2c.body.length})`);
      compared++;
    }
  }
  t.comment(`${compared} requests compared`);
});

t.test("a body over 1 MiB over h2c: the 413, then the stream reset so that the client stops sending", async (t) => {
  const { knex } = await createTestDatabase(t);
  const { server } = await startAuthenticatedServer(t, knex, { asOf: FIXTURE_AS_OF });
  const session = http2.connect(server.url);
  t.teardown(() => session.destroy());
  const stream = session.request({
    ":method": "POST",
    ":path": "/commercialpolicybenchmark/v2.0/assessment/getTotalProgramCount",
  });
  let status = 0;
  let body = "";
  let sent = 0;
  stream.on("response", (headers) => (status = Number(headers[":status"])));
  stream.on("data", (chunk: Buffer) => (body += chunk.toString()));
  stream.on("error", () => {});
  // Up to 1 GB, as fast as the stream takes it: without the reset the server reads it all.
  const chunk = Buffer.alloc(1 << 16, "1");
  const pump = () => {
    while (sent < 1e9 && !stream.closed) {
      sent += chunk.length;
      if (!stream.write(chunk)) return void stream.once("drain", pump);
    }
  };
  stream.write('{"naics":"');
  pump();
  const deadline = performance.now() + 10_000;
  while (!stream.closed && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(status, 413);
  t.match(JSON.parse(body), { status: 413, code: "resource_exhausted" }, "the whole problem document arrived");
  t.ok(stream.closed, "the server reset the stream");
  t.equal(stream.rstCode, http2.constants.NGHTTP2_NO_ERROR, "with NO_ERROR (RFC 9113, 8.1)");
  t.ok(sent < 64 * 1024 * 1024, `the client stopped after ${(sent / 1e6).toFixed(1)} MB`);
});
