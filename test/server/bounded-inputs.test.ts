// Issue 14, item 5: large and deep inputs within the 1 MiB body limit. Each once
// got a 503 "database unavailable" (100,000 naics overflowed the bind parameters),
// a 400 after seconds of CPU (100,000 lineOfBusinessId), or a 400 showing an internal
// error ("Maximum call stack size exceeded"). Now each is a plain 400 at once.
import t from "tap";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { InputProblemsSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { PROBLEMS_PER_FIELD } from "../../src/rpc/input-problems.js";
import { MAX_JSON_DEPTH } from "../../src/transcoding/json-body.js";
import { FIXTURE_AS_OF, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";

const P = "/commercialpolicybenchmark/v2.0";
const GROUP = {
  naics: ["52"],
  coverageId: 1,
  lineOfBusinessId: [11],
  exposureType: "Revenues",
  exposureRangeLow: 0,
  exposureRangeHigh: 1e7,
};
const POSTS = [
  "assessment/getassessmentdata",
  "assessment/getrpmdistributiondata",
  "assessment/getTotalProgramCount",
  "assessment/getTotalLossCount",
  "lossdetails/getlimitadequacydata",
  "trend/getmarkettrend",
  "lossdetails/getlossexperience",
];
/** Every answer here comes well within this, on a loaded CI machine too; the old cases took seconds. */
const QUICK_MS = 1_000;

const range = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));
/** Every distinct code of 2 or 3 digits: the longest list of distinct NAICS codes there is. */
const EVERY_NAICS = [
  ...range(100, (i) => String(i).padStart(2, "0")),
  ...range(1000, (i) => String(i).padStart(3, "0")),
];

t.test("over REST", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const { server, authorization } = await startAuthenticatedServer(t, knex, { asOf: FIXTURE_AS_OF });
  const post = async (path: string, body: string) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${P}/${path}`, { method: "POST", body, headers: { authorization } });
    const problem = (await res.json()) as { detail?: string; errors?: unknown };
    return { status: res.status, errors: problem.errors, detail: problem.detail, ms: performance.now() - started };
  };

  t.test("100,000 naics: a 400 naming the field and the limit, not a 503", async (t) => {
    const answer = await post(
      POSTS[0]!,
      JSON.stringify({ ...GROUP, naics: range(100_000, (i) => String(10 + (i % 90))) }),
    );
    t.match(answer, { status: 400, errors: [{ field: "naics", message: "must have at most 1100 items" }] });
    t.ok(answer.ms < QUICK_MS, `${answer.ms.toFixed(0)} ms`);
  });

  t.test("100,000 lineOfBusinessId: a 400 at once, in every spelling", async (t) => {
    const ids = range(100_000, (i) => i + 1);
    const bodies = {
      "a JSON array": JSON.stringify({ ...GROUP, lineOfBusinessId: ids }),
      "comma-separated text": JSON.stringify({ ...GROUP, lineOfBusinessId: ids.join(",") }),
      "repeated form pairs": `naics=52&coverageId=1&exposureRangeLow=0&exposureRangeHigh=1&${ids.map((id) => `lobId=${id % 10}`).join("&")}`,
    };
    for (const [spelling, body] of Object.entries(bodies)) {
      t.ok(body.length <= 1024 * 1024, `${spelling} fits the body limit`);
      const answer = await post(POSTS[0]!, body);
      t.same(
        { status: answer.status, errors: answer.errors },
        { status: 400, errors: [{ field: "lineOfBusinessId", message: "must have at most 1000 items" }] },
        spelling,
      );
      t.ok(answer.ms < QUICK_MS, `${spelling}: ${answer.ms.toFixed(0)} ms`);
    }
  });

  t.test("100,000 loss-experience limits: a 400 naming the field and its limit of 3, at once", async (t) => {
    const limits = range(100_000, (i) => i + 1);
    for (const [spelling, given] of [
      ["a JSON array", limits],
      ["comma-separated text", limits.join(",")],
    ] as const) {
      const answer = await post("lossdetails/getlossexperience", JSON.stringify({ ...GROUP, limits: given }));
      t.same(
        { status: answer.status, errors: answer.errors },
        { status: 400, errors: [{ field: "limits", message: "must have at most 3 items" }] },
        spelling,
      );
      t.ok(answer.ms < QUICK_MS, `${spelling}: ${answer.ms.toFixed(0)} ms`);
    }
  });

  t.test("JSON nested 200,000 deep: a 400 with a plain message", async (t) => {
    for (const body of [
      `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
      `{"naics": ${'{"a":'.repeat(150_000)}1${"}".repeat(150_000)}}`,
    ]) {
      const answer = await post(POSTS[0]!, body);
      t.match(answer, {
        status: 400,
        detail: "the body is not valid JSON",
        errors: [
          { field: "body", message: new RegExp(`^is nested deeper than ${MAX_JSON_DEPTH} levels \\(at \\d+\\)$`) },
        ],
      });
      t.ok(answer.ms < QUICK_MS, `${answer.ms.toFixed(0)} ms`);
    }
  });

  t.test("lists at their limits reach PostgreSQL whole, on every route: no bind-parameter overflow", async (t) => {
    const types = range(
      100,
      (i) => `T${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`,
    );
    for (const path of POSTS) {
      const allLines = await post(
        path,
        JSON.stringify({
          ...GROUP,
          naics: EVERY_NAICS,
          lineOfBusinessId: range(1000, (i) => i + 1),
          organizationType: types,
        }),
      );
      t.equal(allLines.status, 400, `${path}: 1,000 lines, answered after the query`);
      const errors = allLines.errors as { field: string; message: string }[];
      t.equal(errors.length, PROBLEMS_PER_FIELD + 1, "a few problems listed");
      t.same(
        errors.at(-1),
        { field: "lineOfBusinessId", message: "and 993 more problems" },
        "every line but 11 and 12 is no line of coverage 1",
      );
      const answered = await post(path, JSON.stringify({ ...GROUP, naics: EVERY_NAICS, organizationType: types }));
      t.equal(answered.status, 200, `${path}: every code and 100 types`);
    }
  });
});

t.test("over Connect and gRPC", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const { server, authorization } = await startAuthenticatedServer(t, knex, { asOf: FIXTURE_AS_OF });
  const headers = { authorization };

  t.test("a list over its limit is invalid_argument naming the field and the limit", async (t) => {
    const client = createClient(
      LossDetailsService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    const error = await client
      .postLimitAdequacyData(
        { ...GROUP, naics: range(100_000, () => "52"), organizationType: range(101, () => "PUB") },
        { headers },
      )
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    t.equal(error?.code, Code.InvalidArgument);
    t.equal(
      error?.rawMessage,
      "2 inputs are invalid: naics: must have at most 1100 items; organizationType: must have at most 100 items",
    );
    t.same(
      error?.findDetails(InputProblemsSchema)[0]?.problems.map(({ field, message }) => ({ field, message })),
      [
        { field: "naics", message: "must have at most 1100 items" },
        { field: "organizationType", message: "must have at most 100 items" },
      ],
    );

    const grpcError = await callWithGrpcJs(
      server.url,
      AssessmentService.method.getTotalProgramCount,
      { ...GROUP, lineOfBusinessId: range(100_000, (i) => i) },
      headers,
    ).then(
      () => undefined,
      (e: { code: number; details: string }) => e,
    );
    // Connect percent-encodes the ':' of grpc-message, which grpc-js shows as it is.
    t.match(
      grpcError,
      { code: 3, details: /lineOfBusinessId(:|%3A) must have at most 1000 items$/ },
      "gRPC INVALID_ARGUMENT",
    );
  });

  t.test("1,100 bad codes within the limit: a few problems per field, and how many more", async (t) => {
    // Listed one by one, they made 40 KB of trailers, and grpc-js reset the stream (internal).
    const request = { ...GROUP, naics: range(1_100, (i) => `x${i}`), exposureRangeHigh: -1 };
    const grpcError = await callWithGrpcJs(
      server.url,
      AssessmentService.method.getTotalProgramCount,
      request,
      headers,
    ).then(
      () => undefined,
      (e: { code: number; details: string; metadata: { get(key: string): unknown[] } }) => e,
    );
    t.equal(grpcError?.code, 3, "gRPC INVALID_ARGUMENT");
    const trailer = new Headers({
      "grpc-status": "3",
      "grpc-status-details-bin": (grpcError?.metadata.get("grpc-status-details-bin")[0] as Buffer).toString("base64"),
    });
    const problems = findTrailerError(trailer)!
      .findDetails(InputProblemsSchema)[0]!
      .problems.map(({ field, message }) => ({ field, message }));
    t.same(
      problems.filter((p) => p.field === "naics"),
      [
        ...range(PROBLEMS_PER_FIELD, (i) => ({ field: "naics", message: `"x${i}" is not a 2- or 3-digit NAICS code` })),
        { field: "naics", message: "and 1095 more problems" },
      ],
    );
    t.same(
      [...new Set(problems.map((p) => p.field))].sort(),
      ["exposureRangeHigh", "naics"],
      "every invalid field named",
    );
  });

  t.test("JSON nested 200,000 deep over Connect: invalid_argument with a plain message", async (t) => {
    const url = `${server.url}/${AssessmentService.typeName}/${AssessmentService.method.postAssessmentData.name}`;
    for (const body of [
      `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
      `{"naics": ${'{"a":'.repeat(150_000)}1${"}".repeat(150_000)}}`,
      `{"zz": ${"[".repeat(200_000)}${"]".repeat(200_000)}}`,
    ]) {
      const res = await fetch(url, {
        method: "POST",
        body,
        headers: { ...headers, "content-type": "application/json" },
      });
      const answer = (await res.json()) as { code: string; message: string };
      t.equal(res.status, 400);
      t.equal(answer.code, "invalid_argument");
      t.notMatch(answer.message, /call stack|internal/i, answer.message);
    }
  });
});
