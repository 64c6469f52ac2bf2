// Compression: REST answers over 1 KiB go out as br or gzip when Accept-Encoding asks,
// smaller ones and unasked ones as they are; Connect negotiates its own.
import http from "node:http";
import zlib from "node:zlib";
import { createClient } from "@connectrpc/connect";
import { compressionGzip, createConnectTransport } from "@connectrpc/connect-node";
import t from "tap";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { chooseEncoding, compress } from "../../src/transcoding/compression.js";
import { FIXTURE_AS_OF, FIXTURE_GROUP_A as GROUP, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";

const P = "/commercialpolicybenchmark/v2.0";

/** A POST with the raw answer: status, headers and the body as sent, not decoded. */
function postRaw(
  url: string,
  body: object,
  acceptEncoding?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}

t.test("REST answers compressed as asked, over 1 KiB", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF });
  const assessment = `${server.url}${P}/assessment/getassessmentdata`;
  const body = { ...GROUP, limit: 1_000_000, premium: 12_500.5, retention: 25_000 };

  const plain = await postRaw(assessment, body);
  t.equal(plain.headers["content-encoding"], undefined, "no Accept-Encoding, no compression");
  t.equal(plain.headers.vary, "accept-encoding", "but the answer varies with it");
  t.ok(plain.body.length > 1024, "an answer over 1 KiB");
  const json = plain.body.toString("utf8");

  const gzip = await postRaw(assessment, body, "gzip");
  t.equal(gzip.headers["content-encoding"], "gzip");
  t.equal(gzip.headers.vary, "accept-encoding");
  t.equal(zlib.gunzipSync(gzip.body).toString("utf8"), json, "the same JSON");
  t.ok(gzip.body.length < plain.body.length / 3);

  const br = await postRaw(assessment, body, "gzip;q=0.5, br");
  t.equal(br.headers["content-encoding"], "br");
  t.equal(zlib.brotliDecompressSync(br.body).toString("utf8"), json);

  const refused = await postRaw(assessment, body, "br;q=0, gzip;q=0");
  t.equal(refused.headers["content-encoding"], undefined, "q=0 refuses an encoding");
  t.equal(refused.body.toString("utf8"), json);

  const small = await postRaw(`${server.url}${P}/assessment/getTotalProgramCount`, GROUP, "gzip, br");
  t.equal(small.headers["content-encoding"], undefined, "a few bytes go out as they are");
  t.equal(small.body.toString("utf8"), "5");

  const problem = await postRaw(assessment, { ...body, coverageId: "x" }, "gzip");
  t.equal(problem.status, 400, "problem documents are small and plain");
  t.equal(problem.headers["content-encoding"], undefined);
});

t.test("a kept answer keeps its compressed forms", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    datasetVersion: () => 1,
    answerCacheBytes: 1 << 20,
  });
  const assessment = `${server.url}${P}/assessment/getassessmentdata`;
  const body = { ...GROUP, limit: 1_000_000, premium: 12_500.5, retention: 25_000 };
  const kept = async () =>
    ((await (await fetch(`${server.url}/readyz`)).json()) as { answerCache: { bytes: number; hits: number } })
      .answerCache;

  const json = (await postRaw(assessment, body)).body.toString("utf8");
  const plainBytes = (await kept()).bytes;
  const first = await postRaw(assessment, body, "gzip");
  t.equal(zlib.gunzipSync(first.body).toString("utf8"), json, "the kept answer, compressed");
  const withGzip = (await kept()).bytes;
  t.ok(withGzip > plainBytes, "its gzip form is kept beside it");
  const again = await postRaw(assessment, body, "gzip");
  t.same(again.body, first.body, "and sent again as it is");
  t.equal((await kept()).bytes, withGzip, "without keeping anything more");
  const br = await postRaw(assessment, body, "br");
  t.equal(zlib.brotliDecompressSync(br.body).toString("utf8"), json, "each coding its own form");
  t.ok((await kept()).bytes > withGzip);
  t.equal((await kept()).hits, 3);
});

t.test("Connect negotiates compression", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF });
  const client = createClient(
    AssessmentService,
    createConnectTransport({
      baseUrl: server.url,
      httpVersion: "1.1",
      sendCompression: compressionGzip,
      acceptCompression: [compressionGzip],
      compressMinBytes: 0,
    }),
  );
  const answer = await client.getAssessmentData({
    naics: ["52"],
    coverageId: 1,
    exposureType: "Revenues",
    exposureRangeLow: 0,
    exposureRangeHigh: 10_000_000,
    limit: 1_000_000,
    premium: 12_500.5,
    retention: 25_000,
  });
  t.equal(answer.totalProgramCount, 5n, "a gzip request and answer");
});

t.test("Accept-Encoding", async (t) => {
  t.equal(chooseEncoding(undefined), undefined);
  t.equal(chooseEncoding("gzip"), "gzip");
  t.equal(chooseEncoding("gzip, deflate, br"), "br", "br on a tie");
  t.equal(chooseEncoding("br;q=0.1, gzip;q=0.9"), "gzip");
  t.equal(chooseEncoding("*"), "br");
  t.equal(chooseEncoding("*;q=0, gzip"), "gzip");
  t.equal(chooseEncoding("identity"), undefined);
  t.equal(chooseEncoding("br;q=0, gzip; q=0"), undefined);
});

t.test("an answer is compressed from its pieces into pieces, never joined", async (t) => {
  // 300 KB that barely compress, in uneven pieces: the output spans several pieces too.
  const input = Buffer.alloc(300_000);
  for (let i = 0, x = 7; i < input.length; i++) input[i] = (x = (x * 1_103_515_245 + 12_345) >>> 0) >>> 24;
  const cuts = [0, 1, 70_000, 70_001, 200_000, input.length];
  const pieces = cuts.slice(1).map((end, k) => input.subarray(cuts[k], end));
  for (const [encoding, decompress] of [
    ["gzip", zlib.gunzipSync],
    ["br", zlib.brotliDecompressSync],
  ] as const) {
    const output = await compress(pieces, encoding);
    t.ok(output.length > 1, `${encoding}: ${output.length} output pieces`);
    t.same(decompress(Buffer.concat(output)), input, `${encoding}: the pieces decompress to the answer`);
  }
  t.same(await compress([], "gzip").then((out) => zlib.gunzipSync(Buffer.concat(out))), Buffer.alloc(0), "even none");
});

t.test("large answers are compressed in turn, and one that fails does not stop the next", async (t) => {
  const input = Buffer.from("x".repeat(200_000));
  const finished: string[] = [];
  const first = compress([input], "gzip").then((out) => (finished.push("first"), out));
  // A piece that cannot be read: its compression fails part way.
  const unreadable = {
    length: 10,
    subarray() {
      throw new Error("unreadable");
    },
  } as unknown as Uint8Array;
  const broken = compress([input, unreadable], "gzip").finally(() => finished.push("broken"));
  const last = compress([input], "br").then((out) => (finished.push("last"), out));
  t.same(zlib.gunzipSync(Buffer.concat(await first)), input, "the first");
  await t.rejects(broken, "the broken one fails");
  t.same(zlib.brotliDecompressSync(Buffer.concat(await last)), input, "the one after it still compresses");
  t.same(finished, ["first", "broken", "last"], "in the order they came");
});
