import t from "tap";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { InputProblemsSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { FIXTURE_AS_OF, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";

// Every 400 rule of SEMANTICS.md section 11, and no 500 for any input.
const P = "/commercialpolicybenchmark/v2.0";
const VALID = {
  naics: ["52"],
  coverageId: 1,
  lineOfBusinessId: [11],
  exposureType: "Revenues",
  exposureRangeLow: 0,
  exposureRangeHigh: 1e7,
};

t.test("400 rules", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF });
  const errorsOf = async (path: string, body: object) => {
    const res = await fetch(`${server.url}${P}/${path}`, { method: "POST", body: JSON.stringify(body) });
    const problem = (await res.json()) as { errors?: unknown };
    return { status: res.status, errors: problem.errors };
  };
  const assessment = (body: object) => errorsOf("assessment/getassessmentdata", body);

  const cases: [string, string, object, { field: string; message: string }[]][] = [
    [
      "missing required inputs",
      "assessment/getassessmentdata",
      {},
      [
        { field: "naics", message: "is required" },
        { field: "coverageId", message: "is required" },
        { field: "exposureRangeLow", message: "is required" },
        { field: "exposureRangeHigh", message: "is required" },
      ],
    ],
    [
      "an empty naics list is missing",
      "assessment/getassessmentdata",
      { ...VALID, naics: " , " },
      [{ field: "naics", message: "is required" }],
    ],
    [
      "wrong types",
      "assessment/getassessmentdata",
      { ...VALID, coverageId: "one", premium: "lots", exposureType: 3, organizationType: { a: 1 } },
      [
        { field: "coverageId", message: '"one" is not an integer' },
        { field: "exposureType", message: "3 is not a string" },
        { field: "organizationType", message: "an object is not a list" },
        { field: "premium", message: '"lots" is not a number' },
      ],
    ],
    [
      "NAICS codes of 2 or 3 digits",
      "assessment/getassessmentdata",
      { ...VALID, naics: ["5", "5241", "ab", "52"] },
      [
        { field: "naics", message: '"5" is not a 2- or 3-digit NAICS code' },
        { field: "naics", message: '"5241" is not a 2- or 3-digit NAICS code' },
        { field: "naics", message: '"ab" is not a 2- or 3-digit NAICS code' },
      ],
    ],
    [
      "an unknown exposure type",
      "assessment/getassessmentdata",
      { ...VALID, exposureType: "Sales" },
      [{ field: "exposureType", message: '"Sales" is not an exposure type (Revenues, Employees, Market Cap)' }],
    ],
    [
      "negative amounts and exposures",
      "assessment/getassessmentdata",
      { ...VALID, exposureRangeLow: -1, premium: -0.01, limit: -5, retention: -0.005 },
      [
        { field: "exposureRangeLow", message: "must not be negative" },
        { field: "premium", message: "must not be negative" },
        { field: "limit", message: "must not be negative" },
        { field: "retention", message: "must not be negative" },
      ],
    ],
    [
      "low above high names the second field",
      "assessment/getassessmentdata",
      { ...VALID, exposureRangeLow: 10, exposureRangeHigh: 9.99 },
      [{ field: "exposureRangeHigh", message: "must not be less than exposureRangeLow (10)" }],
    ],
    [
      "an unknown coverage hides LOB checks",
      "assessment/getassessmentdata",
      { ...VALID, coverageId: 99, lineOfBusinessId: [999] },
      [{ field: "coverageId", message: "99 is not a known coverage" }],
    ],
    [
      "a LOB of another coverage",
      "assessment/getassessmentdata",
      { ...VALID, lineOfBusinessId: [0, 12, 21] },
      [{ field: "lineOfBusinessId", message: "21 is not a line of business of coverage 1" }],
    ],
    [
      "trailing values outside the sets",
      "assessment/getassessmentdata",
      { ...VALID, oldestTrailing: 5, newestTrailing: 7 },
      [
        { field: "oldestTrailing", message: "must be one of 24, 12, 9, 6, 3, not 5" },
        { field: "newestTrailing", message: "must be one of 12, 9, 6, 3, 0, not 7" },
      ],
    ],
    [
      "newest not below oldest",
      "assessment/getrpmdistributiondata",
      { ...VALID, oldestTrailing: 6, newestTrailing: 6 },
      [{ field: "newestTrailing", message: "must be less than oldestTrailing (6)" }],
    ],
    [
      "newest alone against the default oldest",
      "assessment/getTotalProgramCount",
      { ...VALID, oldestTrailing: 3, newestTrailing: 12 },
      [{ field: "newestTrailing", message: "must be less than oldestTrailing (3)" }],
    ],
    [
      "an invalid oldest hides the pair rule",
      "assessment/getTotalProgramCount",
      { ...VALID, oldestTrailing: 5, newestTrailing: 12 },
      [{ field: "oldestTrailing", message: "must be one of 24, 12, 9, 6, 3, not 5" }],
    ],
    [
      "loss years above 1800 and at most 9999",
      "assessment/getTotalLossCount",
      { ...VALID, oldestLossYear: 1800, newestLossYear: 10000 },
      [
        { field: "oldestLossYear", message: "must be a year after 1800 and at most 9999, not 1800" },
        { field: "newestLossYear", message: "must be a year after 1800 and at most 9999, not 10000" },
      ],
    ],
    [
      "newestLossYear above oldestLossYear",
      "lossdetails/getlimitadequacydata",
      { ...VALID, oldestLossYear: 2020, newestLossYear: 2020 },
      [{ field: "newestLossYear", message: "must be greater than oldestLossYear (2020)" }],
    ],
    [
      "lossYear itself is checked",
      "assessment/getTotalLossCount",
      { ...VALID, lossYear: -3 },
      [{ field: "lossYear", message: "must be a year after 1800 and at most 9999, not -3" }],
    ],
    [
      "clientLimit by its canonical name, whatever the spelling",
      "lossdetails/getlimitadequacydata",
      { ...VALID, CLIENTLIMIT: -1, "lob Id": "x" },
      [
        { field: "lineOfBusinessId", message: '"x" is not an integer' },
        { field: "clientLimit", message: "must not be negative" },
      ],
    ],
  ];
  for (const [name, path, body, errors] of cases) {
    const answer = await errorsOf(path, body);
    t.same(answer, { status: 400, errors }, name);
  }

  t.same(
    await assessment({ ...VALID, premium: -0.004, exposureRangeLow: "-0.001" }).then((a) => a.status),
    200,
    "-0.004 rounds to 0 before the check",
  );

  const query = await fetch(
    `${server.url}${P}/lossdetails/limitadequacy?Naics=5&CoverageId=1&ExposureRangeLow=1&ExposureRangeHigh=2&ClientLimit=-2`,
  );
  t.same(
    ((await query.json()) as { errors: unknown }).errors,
    [
      { field: "naics", message: '"5" is not a 2- or 3-digit NAICS code' },
      { field: "clientLimit", message: "must not be negative" },
    ],
    "GET forms name fields canonically too",
  );
});

t.test("gRPC and Connect callers get invalid_argument with the same problems", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF });
  const client = createClient(AssessmentService, createConnectTransport({ baseUrl: server.url, httpVersion: "2" }));
  const error = await client
    .getTotalProgramCount({ ...VALID, naics: ["5"], coverageId: 99, oldestTrailing: 6, newestTrailing: 9 })
    .then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
  t.equal(error?.code, Code.InvalidArgument);
  t.equal(
    error?.rawMessage,
    '3 inputs are invalid: naics: "5" is not a 2- or 3-digit NAICS code; coverageId: 99 is not a known coverage; newestTrailing: must be less than oldestTrailing (6)',
  );
  t.same(
    error?.findDetails(InputProblemsSchema)[0]?.problems.map(({ field, message }) => ({ field, message })),
    [
      { field: "naics", message: '"5" is not a 2- or 3-digit NAICS code' },
      { field: "coverageId", message: "99 is not a known coverage" },
      { field: "newestTrailing", message: "must be less than oldestTrailing (6)" },
    ],
  );
});

t.test("no input yields a 500: random junk to every operation", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF });
  let seed = 20261122;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const junk = [
    null,
    true,
    0,
    -1,
    1e308,
    -1e-308,
    2 ** 63,
    "",
    " ",
    "52",
    "1e999",
    "NaN",
    "Infinity",
    "0x10",
    "１２",
    "'; drop table companies; --",
    [],
    [null],
    [[1]],
    [{}],
    {},
    { $gt: 1 },
    "a".repeat(5000),
    "\u0000",
    "😀",
    [1, "2", 3.5],
    1.0000000000000002,
    -0,
    "-0",
  ];
  const fields = [
    "naics",
    "coverageId",
    "lineOfBusinessId",
    "lobId",
    "exposureType",
    "exposure",
    "exposureRangeLow",
    "exposureRangeHigh",
    "organizationType",
    "premium",
    "limit",
    "retention",
    "clientLimit",
    "oldestTrailing",
    "newestTrailing",
    "lossYear",
    "oldestLossYear",
    "newestLossYear",
  ];
  const posts = [
    "assessment/getassessmentdata",
    "assessment/getrpmdistributiondata",
    "assessment/getTotalProgramCount",
    "assessment/getTotalLossCount",
    "lossdetails/getlimitadequacydata",
  ];
  const gets = [
    "assessment/getassessmentdata",
    "assessment/getrpmdistributiondata",
    "lossdetails/limitadequacy",
    "company/1",
    "lossdetails/1",
  ];
  const statuses = new Set<number>();
  for (let i = 0; i < 300; i++) {
    const body: Record<string, unknown> = { ...VALID };
    for (let k = 0; k < 1 + Math.floor(random() * 4); k++) body[pick(fields)] = pick(junk);
    const res =
      random() < 0.6
        ? await fetch(`${server.url}${P}/${pick(posts)}`, {
            method: "POST",
            body: random() < 0.9 ? JSON.stringify(body) : JSON.stringify(body).slice(0, 20),
          })
        : await fetch(
            `${server.url}${P}/${pick(gets)}?${new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]))}`,
          );
    statuses.add(res.status);
    if (res.status >= 500) t.fail(`${res.status} for ${JSON.stringify(body)}: ${await res.text()}`);
    else await res.arrayBuffer();
  }
  t.ok(statuses.has(400) && statuses.has(200), `both answers and refusals seen: ${[...statuses].join(", ")}`);
});

t.test("NaN and Infinity, which protobuf doubles can carry over gRPC and Connect, are refused", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF });
  const client = createClient(AssessmentService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
  const error = await client
    .getRpmDistributionData({
      ...VALID,
      exposureType: "Employees",
      exposureRangeHigh: Number.NaN,
      premium: Number.POSITIVE_INFINITY,
      limit: Number.NEGATIVE_INFINITY,
    })
    .then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
  t.equal(error?.code, Code.InvalidArgument);
  t.same(
    error?.findDetails(InputProblemsSchema)[0]?.problems.map(({ field, message }) => ({ field, message })),
    [
      { field: "exposureRangeHigh", message: "NaN is not a number" },
      { field: "premium", message: "Infinity is not a number" },
      { field: "limit", message: "-Infinity is not a number" },
    ],
  );
});
