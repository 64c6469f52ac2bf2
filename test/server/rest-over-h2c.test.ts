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
import {
  documentedOperations,
  MISSING_ID,
  requestOf,
  requiredInputs,
  type DocumentedOperation,
} from "../helpers/openapi-operations.js";
import { h2Exchange, http1Exchange, type RawAnswer, type RawRequest } from "../helpers/raw-exchange.js";

type Json = { [key: string]: unknown };

/** Headers of the connection, not of the answer: HTTP/2 has none of them (RFC 9113, 8.2.2). */
const CONNECTION_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "date"]);

/** A case of the walk: the request, and the status it must get. */
interface Case {
  name: string;
  request: RawRequest;
  status: number;
}

function casesOf(op: DocumentedOperation, authorization: string, etag: string | undefined): Case[] {
  const name = `${op.method} ${op.template}`;
  const inputs = requiredInputs(op);
  const post = op.method === "POST";
  const make = (label: string, status: number, init: Partial<RawRequest> & { inputs?: Map<string, unknown> }) => {
    const { target, body } = requestOf(op, init.inputs ?? inputs, init.target);
    const json = Buffer.from(JSON.stringify(body));
    return {
      name: `${name}: ${label}`,
      status,
      request: {
        method: op.method,
        target,
        headers: { authorization, "x-request-id": `h2c-parity-${label.replace(/[^a-z0-9]+/gi, "-")}`, ...init.headers },
        body: init.body ?? (post ? [json] : undefined),
        contentLength: init.contentLength ?? true,
      },
    };
  };
  const cases: Case[] = [
    make("complete", 200, {}),
    make("complete, gzip accepted", 200, { headers: { "accept-encoding": "gzip" } }),
    make("no token", 401, { headers: { authorization: "" } }),
  ];
  if (etag) cases.push(make("If-None-Match", 304, { headers: { "if-none-match": etag } }));
  for (const input of op.required.filter((i) => i.in !== "path")) {
    const without = new Map(inputs);
    without.delete(input.name);
    cases.push(make(`without ${input.name}`, 400, { inputs: without }));
  }
  if (op.required.some((input) => input.in === "path"))
    cases.push(make("no such record", 404, { target: MISSING_ID as unknown as string }));
  if (post) {
    const json = Buffer.from(JSON.stringify(requestOf(op, inputs).body));
    const pieces = (whole: Buffer, size: number) => {
      const list: Buffer[] = [];
      for (let at = 0; at < whole.length; at += size) list.push(whole.subarray(at, at + size));
      return list;
    };
    // JSON allows any run of whitespace between tokens: a body of 1,000,000 bytes, under the 1 MiB limit.
    const large = Buffer.concat([json.subarray(0, 1), Buffer.alloc(1_000_000 - json.length, " "), json.subarray(1)]);
    cases.push(
      make("body without content-length", 200, { contentLength: false }),
      make("body in 3-byte pieces", 200, { body: pieces(json, 3) }),
      make("body in 3-byte pieces, no content-length", 200, { body: pieces(json, 3), contentLength: false }),
      make("a 1,000,000-byte body", 200, { body: pieces(large, 16_384) }),
      make("a 1,000,000-byte body, no content-length", 200, { body: pieces(large, 16_384), contentLength: false }),
      make("empty body", 400, { body: [] }),
      make("malformed JSON", 400, { body: [Buffer.from('{"naics": [')] }),
      make("a body over 1 MiB", 413, { body: [Buffer.from(`{"naics":"${"1".repeat(1_100_000)}"}`)] }),
      make("a body over 1 MiB, no content-length", 413, {
        body: pieces(Buffer.from(`{"naics":"${"1".repeat(1_100_000)}"}`), 65_536),
        contentLength: false,
      }),
    );
  }
  return cases;
}

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
  t.teardown(() => session.close());

  const operations = documentedOperations(document);
  t.ok(operations.length >= 13, `every operation of the REST face (${operations.length})`);
  let compared = 0;
  for (const op of operations) {
    // The 200's ETag, for the walk's 304.
    const complete = await http1Exchange(server.url, agent, casesOf(op, authorization, undefined)[0]!.request);
    for (const { name, request, status } of casesOf(op, authorization, complete.headers.etag)) {
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
