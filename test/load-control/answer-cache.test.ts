// The REST answer cache: a repeated request (however spelled) is answered from the
// cache with the same bytes, If-None-Match gets a 304, a cached answer still needs a
// token, and once the data changes no earlier answer is served again.
import t from "tap";
import { equals } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import {
  AssessmentService,
  GetAssessmentDataResponseSchema,
} from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { missingToken } from "../../src/auth/bearer-errors.js";
import type { Authenticator } from "../../src/auth/authenticator.js";
import { createAnswerCache, ifNoneMatchHits } from "../../src/load-control/answer-cache.js";
import { FIXTURE_AS_OF, FIXTURE_GROUP_A as GROUP, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";

const P = "/commercialpolicybenchmark/v2.0";
const TOKEN = "Bearer any";

/** Any caller with a token passes; a call without one is refused, as by the real verifier. */
const tokenRequired: Authenticator = {
  async authenticate(authorization) {
    if (!authorization) throw missingToken();
    return { subject: "broker", scopes: [] };
  },
  ready: () => true,
};

t.test("answers kept by canonical request and data version, with ETags", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  let version = 1;
  const server = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    authenticator: tokenRequired,
    datasetVersion: () => version,
    answerCacheBytes: 1 << 20,
  });
  const post = async (path: string, body: object, headers: Record<string, string> = { authorization: TOKEN }) => {
    const res = await fetch(`${server.url}${P}/${path}`, { method: "POST", body: JSON.stringify(body), headers });
    return {
      status: res.status,
      etag: res.headers.get("etag"),
      cacheControl: res.headers.get("cache-control"),
      text: await res.text(),
    };
  };
  const cache = async () =>
    ((await (await fetch(`${server.url}/readyz`)).json()) as { answerCache: Record<string, number> }).answerCache;

  const first = await post("assessment/getassessmentdata", {
    ...GROUP,
    limit: 1_000_000,
    premium: 12_500.5,
    retention: 25_000,
  });
  t.equal(first.status, 200);
  t.match(first.etag, /^"[A-Za-z0-9_-]{32}"$/, "a strong ETag");
  t.equal(first.cacheControl, "private, no-cache", "no shared cache may keep it");
  t.match(await cache(), { hits: 0, misses: 1, entries: 1 });

  // The same request spelled another way: an alias, a bare value for a list, reordered keys.
  const again = await post("assessment/getassessmentdata", {
    retention: 25_000,
    premium: 12_500.5,
    limit: 1_000_000,
    ...GROUP,
    lineOfBusinessId: undefined,
    lobId: 0,
    naics: "52",
  });
  t.equal(again.text, first.text, "the same bytes");
  t.equal(again.etag, first.etag, "the same ETag");
  t.match(await cache(), { hits: 1, misses: 1, entries: 1 });

  const count = () => post("assessment/getTotalProgramCount", GROUP);
  t.equal((await count()).text, "5");
  const revalidate = async (etag: string, authorization?: string) => {
    const res = await fetch(`${server.url}${P}/assessment/getTotalProgramCount`, {
      method: "POST",
      body: JSON.stringify(GROUP),
      headers: { "if-none-match": `W/"other", ${etag}`, ...(authorization ? { authorization } : {}) },
    });
    return { status: res.status, etag: res.headers.get("etag"), text: await res.text() };
  };
  const countEtag = (await count()).etag!;
  const notModified = await revalidate(countEtag, TOKEN);
  t.equal(notModified.status, 304, "If-None-Match with the current ETag: 304");
  t.equal(notModified.text, "", "and no body");
  t.equal(notModified.etag, countEtag);
  t.equal((await revalidate(countEtag)).status, 401, "no token, no 304");
  t.equal((await post("assessment/getTotalProgramCount", GROUP, {})).status, 401, "no token, no cached answer");

  // An import: a program of the group leaves it, and the watcher reports a new version.
  await knex("programs").where({ program_id: 1 }).update({ effective_date: "2020-01-01" });
  t.equal(
    (await count()).text,
    "5",
    "before the version notice the kept answer stands (the import's commit is not yet heard)",
  );
  version = 2;
  const after = await count();
  t.equal(after.text, "4", "the new data's answer, not the kept one");
  t.not(after.etag, countEtag, "under a new ETag");
  t.equal((await revalidate(countEtag, TOKEN)).status, 200, "the old ETag no longer matches");
  t.match(await cache(), { entries: 1 }, "the entries of the old version are gone");
});

t.test("a kept answer goes at once to a recognized caller; anyone else is authenticated first", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const authenticated: string[] = [];
  const recognizing: Authenticator = {
    async authenticate(authorization) {
      authenticated.push(authorization ?? "none");
      if (authorization !== TOKEN && authorization !== "Bearer recent") throw missingToken();
      return { subject: "broker", scopes: [] };
    },
    // Only this token counts as verified a moment ago.
    recognize: (authorization) =>
      authorization === "Bearer recent" ? { subject: "recent broker", scopes: [] } : undefined,
    ready: () => true,
  };
  const logLines: Record<string, unknown>[] = [];
  const server = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    authenticator: recognizing,
    datasetVersion: () => 1,
    answerCacheBytes: 1 << 20,
    logLines,
  });
  const get = (query: string, authorization: string) =>
    fetch(`${server.url}${P}/assessment/getrpmdistributiondata?${query}`, { headers: { authorization } }).then(
      async (res) => ({ status: res.status, text: await res.text() }),
    );
  const query =
    "naics=52&coverageId=1&exposureType=Revenues&exposureRangeLow=0&exposureRangeHigh=10000000&limit=1000000&premium=5000";

  const first = await get(query, TOKEN);
  t.equal(first.status, 200);
  t.same(authenticated, [TOKEN], "computing the answer authenticates");
  t.same(await get(query, "Bearer recent"), first, "the kept answer, to a recognized caller");
  t.same(authenticated, [TOKEN], "without authenticating it");
  t.match(
    logLines.at(-1),
    { msg: "request", subject: "recent broker", code: "ok" },
    "the caller is named in the log line",
  );
  t.equal((await get(query, "Bearer unknown")).status, 401, "an unrecognized token is authenticated, and refused");
  t.same(await get(query.replace("naics=52", "NAICS=52"), TOKEN), first, "another spelling, the same entry");

  const bad = query.replace("exposureRangeLow=0", "exposureRangeLow=abc");
  for (let i = 0; i < 2; i++)
    t.equal((await get(bad, "Bearer recent")).status, 400, `a request with problems, sent twice: 400 (${i + 1})`);
  t.same(authenticated.slice(-2), ["Bearer recent", "Bearer recent"], "answered by the handler, which authenticates");
  t.equal((await get(bad, "Bearer unknown")).status, 401, "and it needs a token like any other");
});

t.test("gRPC, gRPC-Web and Connect callers get kept answers too, never from older data", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  let version = 1;
  const server = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    authenticator: tokenRequired,
    datasetVersion: () => version,
    answerCacheBytes: 1 << 20,
  });
  const cache = async () =>
    ((await (await fetch(`${server.url}/readyz`)).json()) as { answerCache: Record<string, number> }).answerCache;
  const group = { ...GROUP, limit: 1_000_000, premium: 12_500.5 };
  const grpc = () =>
    callWithGrpcJs(server.url, AssessmentService.method.getAssessmentData, group, { authorization: TOKEN });
  const connect = (useBinaryFormat: boolean) =>
    createClient(
      AssessmentService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1", useBinaryFormat }),
    ).getAssessmentData(group, { headers: { authorization: TOKEN } });

  const computed = await grpc();
  t.match(await cache(), { hits: 0, misses: 1, entries: 1 });
  const kept = await grpc();
  t.ok(equals(GetAssessmentDataResponseSchema, kept, computed), "gRPC: the kept answer, the same message");
  t.match(await cache(), { hits: 1, misses: 1 });
  t.ok(equals(GetAssessmentDataResponseSchema, await connect(true), computed), "Connect (binary): the same entry");
  t.match(await cache(), { hits: 2, misses: 1 });
  t.ok(equals(GetAssessmentDataResponseSchema, await connect(false), computed), "Connect (JSON) is computed");
  t.match(await cache(), { hits: 2, misses: 1 }, "and leaves the cache alone (a JSON codec writes no unknown fields)");
  await t.rejects(
    callWithGrpcJs(server.url, AssessmentService.method.getAssessmentData, group),
    { code: 16 },
    "a kept answer still needs a token",
  );

  await knex("programs").where({ program_id: 1 }).update({ effective_date: "2020-01-01" });
  version = 2;
  const after = await grpc();
  t.equal(after.totalProgramCount, computed.totalProgramCount - 1n, "after the version notice, the new data's answer");
});

t.test("ETags and 304s without room for answers (ANSWER_CACHE_MB=0)", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    authenticator: tokenRequired,
    datasetVersion: () => 1,
    answerCacheBytes: 0,
  });
  const count = (headers: Record<string, string>) =>
    fetch(`${server.url}${P}/assessment/getTotalProgramCount`, {
      method: "POST",
      body: JSON.stringify(GROUP),
      headers: { authorization: TOKEN, ...headers },
    });
  const first = await count({});
  const etag = first.headers.get("etag")!;
  t.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
  t.equal((await count({ "if-none-match": etag })).status, 304);
  const readyz = (await (await fetch(`${server.url}/readyz`)).json()) as { answerCache: unknown };
  t.equal(readyz.answerCache, null, "no answers kept");

  // A rule that refuses nothing here, but a rule: its answers are tagged apart.
  const lenient = {
    kind: "standard",
    minCompanies: 1,
    maxSourceShareBasisPoints: 10_000,
    maxTopTwoShareBasisPoints: 10_000,
  } as const;
  const ruled = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    authenticator: tokenRequired,
    datasetVersion: () => 1,
    answerCacheBytes: 0,
    disclosure: lenient,
  });
  const under = await fetch(`${ruled.url}${P}/assessment/getTotalProgramCount`, {
    method: "POST",
    body: JSON.stringify(GROUP),
    headers: { authorization: TOKEN, "if-none-match": etag },
  });
  t.equal(under.status, 200, "an ETag of another disclosure rule is no 304");
  t.not(under.headers.get("etag"), etag);
});

t.test("an answer computed while the data changed is not kept", async (t) => {
  let tag = "1";
  const cache = createAnswerCache({ maxBytes: 1000, maxAnswerBytes: 1000, dataTag: () => tag });
  const ticket = cache.open("request")!;
  tag = "2";
  ticket.keep([Buffer.from("old data")]);
  t.equal(cache.open("request")!.cached, undefined);
  t.match(cache.stats(), { entries: 0, dataTag: "2" });
  tag = "3";
  const fresh = cache.open("request")!;
  fresh.keep([Buffer.from("new"), Buffer.from(" data")]);
  t.equal(Buffer.concat(cache.open("request")!.cached!).toString(), "new data");
  t.not(fresh.etag, ticket.etag, "ETags differ across data versions");
});

t.test("no dataset version known, nothing cached; bounded by bytes", async (t) => {
  t.equal(
    createAnswerCache({ maxBytes: 1000, maxAnswerBytes: 1000, dataTag: () => undefined }).open("request"),
    undefined,
  );
  const cache = createAnswerCache({ maxBytes: 100, maxAnswerBytes: 60, dataTag: () => "1" });
  for (let i = 0; i < 10; i++) cache.open(`request ${i}`)!.keep([Buffer.alloc(30)]);
  t.ok(cache.stats()!.bytes <= 100);
  t.ok(cache.stats()!.evictions > 0);
  cache.open("large")!.keep([Buffer.alloc(40), Buffer.alloc(30)]);
  t.equal(cache.open("large")!.cached, undefined, "an answer over maxAnswerBytes is not kept");
});

t.test("a large answer is kept once asked for twice; small ones at once", async (t) => {
  const cache = createAnswerCache({ maxBytes: 10_000, maxAnswerBytes: 5_000, askedTwiceOver: 100, dataTag: () => "1" });
  cache.open("small")!.keep([Buffer.alloc(100)]);
  t.ok(cache.open("small")!.cached, "an answer of 100 bytes: kept at once");
  cache.open("large")!.keep([Buffer.alloc(101)]);
  t.equal(cache.open("large")!.cached, undefined, "101 bytes, asked once: not kept");
  cache.open("large")!.keep([Buffer.alloc(101)]);
  t.equal(cache.open("large")!.cached?.[0]?.length, 101, "asked again: kept");
});

t.test("If-None-Match", async (t) => {
  t.ok(ifNoneMatchHits('"a", "b"', '"b"'));
  t.ok(ifNoneMatchHits('W/"b"', '"b"'), "weak comparison");
  t.ok(ifNoneMatchHits("*", '"b"'));
  t.notOk(ifNoneMatchHits('"a"', '"b"'));
  t.notOk(ifNoneMatchHits(undefined, '"b"'));
});

t.test("an answer read from a version the replica has not heard of yet gets no ETag and is not kept", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  // A replica on a hot standby hears of a version up to a poll after its reads see it.
  let heard = 1;
  await knex("dataset_version").update({ version: 2 });
  const server = await startTestServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    datasetVersion: () => heard,
    answerCacheBytes: 1 << 20,
  });
  const ask = async () => {
    const res = await fetch(`${server.url}${P}/assessment/getTotalProgramCount`, {
      method: "POST",
      body: JSON.stringify(GROUP),
    });
    await res.text();
    return { etag: res.headers.get("etag"), version: res.headers.get("cpb-dataset-version") };
  };
  const hits = async () =>
    ((await (await fetch(`${server.url}/readyz`)).json()) as { answerCache: { hits: number } }).answerCache.hits;

  t.same(await ask(), { etag: null, version: "2" }, "read from version 2 while version 1 is heard: no ETag");
  await ask();
  t.equal(await hits(), 0, "and not kept");
  heard = 2;
  const caught = await ask();
  t.equal(caught.version, "2");
  t.ok(caught.etag, "once version 2 is heard, the ETag is back");
  t.equal((await ask()).etag, caught.etag);
  t.equal(await hits(), 1, "and the answer is kept");
});
