// The loss experience's rules (SEMANTICS.md section 15) at their edges, on a hand-built
// data set whose figures are worked out below: years 1, 5 (the default) and 20; programs
// and losses on the first and last days of years; a loss with only a filing date; $0
// losses counted as losses but not as paid ones; limits exactly at a loss amount and a
// cent either side, repeated, in every list form; empty years; the 400s naming `years`
// and `limits`; ignored inputs; withheld years and the total's rules under the
// disclosure rule. Over REST GET and POST (both engines), gRPC (@grpc/grpc-js and
// connect-node), gRPC-Web and Connect.
import t from "tap";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type * as grpc from "@grpc/grpc-js";
import {
  GetLossExperienceResponseSchema,
  LossDetailsService,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import type { DisclosureRule } from "../../src/benchmark/disclosure-rule.js";
import { messageJson } from "../../src/transcoding/json-writer.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { insertLossExperienceFixture, LOSS_EXPERIENCE_AS_OF } from "../fixtures/loss-experience-fixture.js";

const PATH = "/commercialpolicybenchmark/v2.0/lossdetails/getlossexperience";
const GROUP = { naics: ["52"], coverageId: 1, exposureRangeLow: 0, exposureRangeHigh: 10_000_000 };
const GROUP_QUERY = "naics=52&coverageId=1&exposureRangeLow=0&exposureRangeHigh=10000000";
/** Exactly 2025's two $1,000,000 losses, a cent below, a cent above. */
const LIMITS = [1_000_000, 999_999.99, 1_000_000.01];

type Json = Record<string, unknown>;

/** One entry per limit of LIMITS: the counts given, their percentages given (null without paid losses). */
const exceeding = (counts: number[], percents: (number | null)[]) =>
  LIMITS.map((limit, j) => ({ limit, count: counts[j], percent: percents[j] }));
const NO_PAID = exceeding([0, 0, 0], [null, null, null]);
const severity = (firstQuartile: number, median: number, thirdQuartile: number, average: number, max: number) => ({
  firstQuartile,
  median,
  thirdQuartile,
  average,
  max,
});
const single = (amount: number) => severity(amount, amount, amount, amount, amount);
const empty = (year: number) => ({
  year,
  programCount: 0,
  lossCount: 0,
  paidLossCount: 0,
  frequencyPer100: null,
  severity: null,
  exceeding: NO_PAID,
  withheld: null,
});

/** The five default years, as the fixture's comments work them out. */
const Y2021 = {
  year: 2021,
  programCount: 1, // program 5, on the year's first day
  lossCount: 1, // loss 11, $0: a loss all the same
  paidLossCount: 0,
  frequencyPer100: 100,
  severity: null,
  exceeding: NO_PAID, // the entries stay, count 0, percent null
  withheld: null,
};
const Y2022 = empty(2022);
const Y2023 = {
  year: 2023,
  programCount: 1, // program 8 (line 12)
  lossCount: 1, // loss 10 (line 12)
  paidLossCount: 1,
  frequencyPer100: 100,
  severity: single(123_457),
  exceeding: exceeding([0, 0, 0], [0, 0, 0]),
  withheld: null,
};
const Y2024 = {
  year: 2024,
  programCount: 1, // program 2, on the year's last day
  lossCount: 2, // loss 2 by its filing date (23:00 on the 31st), loss 3 by its accident date ($0)
  paidLossCount: 1,
  frequencyPer100: 200,
  severity: single(250_000),
  exceeding: exceeding([0, 0, 0], [0, 0, 0]),
  withheld: null,
};
const Y2025 = {
  year: 2025,
  programCount: 4, // programs 1 (Jan 1), 12, 13 and 3 (Dec 31)
  lossCount: 4, // losses 1 (filed 2026: its accident's year), 5, 9 ($0) and 4 (23:59:59 on Dec 31)
  paidLossCount: 3, // [1,000,000, 1,000,000, 5,000,000]
  frequencyPer100: 100,
  // q(0.75): h = 1.5, 1,000,000 + 0.5 (5,000,000 - 1,000,000); mean 7,000,000 / 3
  severity: severity(1_000_000, 1_000_000, 3_000_000, 2_333_333.33, 5_000_000),
  // Above 1,000,000 exactly: only 5,000,000; above 999,999.99: all three.
  exceeding: exceeding([1, 3, 1], [33.33, 100, 33.33]),
  withheld: null,
};
const TOTAL = {
  fromYear: 2021,
  toYear: 2025,
  programCount: 7,
  lossCount: 8,
  paidLossCount: 5, // [123,457, 250,000, 1,000,000, 1,000,000, 5,000,000]
  frequencyPer100: 114.29, // 800 / 7
  severity: severity(250_000, 1_000_000, 1_000_000, 1_474_691.4, 5_000_000), // mean 7,373,457 / 5
  exceeding: exceeding([1, 3, 1], [20, 60, 20]),
  withheld: null,
};
const EXPECTED = { years: [Y2021, Y2022, Y2023, Y2024, Y2025], total: TOTAL };

t.test("the loss experience", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  await insertLossExperienceFixture(knex);
  const peerIndex = await startPeerIndex(t, knex, url);
  const servers = {
    sql: await startTestServer(t, knex, { asOf: LOSS_EXPERIENCE_AS_OF }),
    index: await startTestServer(t, knex, { asOf: LOSS_EXPERIENCE_AS_OF, peerIndex }),
  };
  const post = async (base: string, body: object | string) => {
    const res = await fetch(`${base}${PATH}`, {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Json };
  };
  const get = async (base: string, query: string) => {
    const res = await fetch(`${base}${PATH}?${query}`);
    return { status: res.status, json: (await res.json()) as Json };
  };

  for (const engine of ENGINES) {
    const base = servers[engine].url;

    t.test(`${engine}: figures worked out by hand`, async (t) => {
      t.strictSame(await post(base, { ...GROUP, limits: LIMITS }), { status: 200, json: EXPECTED }, "POST");
      t.strictSame(
        await get(base, `${GROUP_QUERY}&limits=1000000,999999.99&Limits=1000000.01`),
        { status: 200, json: EXPECTED },
        "GET: comma-separated and repeated, names in any case",
      );
      const ignored = {
        oldestTrailing: 7,
        newestTrailing: 30,
        lossYear: 1700,
        oldestLossYear: 3000,
        newestLossYear: 1,
        premium: -1,
        limit: -1,
        retention: "x",
        clientLimit: -5,
      };
      t.strictSame(
        await post(base, { ...GROUP, limits: LIMITS, ...ignored }),
        { status: 200, json: EXPECTED },
        "trailing inputs, loss-year inputs and client amounts are ignored, even invalid ones",
      );
      t.strictSame(
        await get(
          base,
          `${GROUP_QUERY}&limits=1000000,999999.99,1000000.01&oldestTrailing=7&lossYear=1&clientLimit=-1`,
        ),
        { status: 200, json: EXPECTED },
        "GET: the same inputs ignored",
      );
    });

    t.test(`${engine}: 1, 5 and 20 years`, async (t) => {
      const { json: five } = await post(base, { ...GROUP, years: null, limits: LIMITS });
      t.strictSame(five, EXPECTED, "null is the default, 5");
      const { json: one } = await post(base, { ...GROUP, years: 1, limits: LIMITS });
      t.strictSame(
        one,
        { years: [Y2025], total: { ...TOTAL, ...withoutYear(Y2025), fromYear: 2025, toYear: 2025 } },
        "1 year: the year before the as-of date's; the total is that year's",
      );
      const { json: twenty } = await post(base, { ...GROUP, years: "20", limits: LIMITS });
      const years = twenty.years as Json[];
      t.strictSame(
        years.map((year) => year.year),
        Array.from({ length: 20 }, (_, k) => 2006 + k),
        "20 years, oldest first, every one present",
      );
      t.strictSame(
        years.slice(0, 14),
        Array.from({ length: 14 }, (_, k) => empty(2006 + k)),
        "empty years: counts 0",
      );
      t.strictSame(
        years[14],
        {
          year: 2020,
          programCount: 1, // program 6, on 2020's last day
          lossCount: 1, // loss 8: accident in 2020, filed in 2021
          paidLossCount: 1,
          frequencyPer100: 100,
          severity: single(2_000_000),
          exceeding: exceeding([1, 1, 1], [100, 100, 100]),
          withheld: null,
        },
        "2020",
      );
      t.strictSame(years.slice(15), EXPECTED.years, "2021 to 2025 as in 5 years");
      t.strictSame(
        twenty.total,
        {
          fromYear: 2006,
          toYear: 2025,
          programCount: 8,
          lossCount: 9,
          paidLossCount: 6, // [123,457, 250,000, 1,000,000, 1,000,000, 2,000,000, 5,000,000]
          frequencyPer100: 112.5,
          // h = 1.25, 2.5, 3.75; mean 9,373,457 / 6 = 1,562,242.833...
          severity: severity(437_500, 1_000_000, 1_750_000, 1_562_242.83, 5_000_000),
          exceeding: exceeding([2, 4, 2], [33.33, 66.67, 33.33]),
          withheld: null,
        },
        "the total of 20 years",
      );
    });

    t.test(`${engine}: limits in every list form, repeated, or none`, async (t) => {
      const expect = async (name: string, limits: unknown) => {
        const { status, json } = await post(base, { ...GROUP, years: 1, limits });
        t.equal(status, 200, `${name}: 200`);
        return (json.total as Json).exceeding;
      };
      const three = exceeding([1, 3, 1], [33.33, 100, 33.33]);
      t.strictSame(await expect("a JSON array", LIMITS), three);
      t.strictSame(await expect("numeric strings", ["1000000", " 999999.99 ", "1000000.01"]), three);
      t.strictSame(await expect("a JSON string split on commas", "1000000, 999999.99,,1000000.01,"), three);
      t.strictSame(await expect("strings with commas inside an array", ["1000000,999999.99", "1000000.01"]), three);
      t.strictSame(
        await expect("a third decimal rounds half away from zero first", [999_999.995, "999999.985", 1_000_000.005]),
        [
          { limit: 1_000_000, count: 1, percent: 33.33 },
          { limit: 999_999.99, count: 3, percent: 100 },
          { limit: 1_000_000.01, count: 1, percent: 33.33 },
        ],
      );
      t.strictSame(await expect("a JSON number is a one-item list", 999_999.99), [
        { limit: 999_999.99, count: 3, percent: 100 },
      ]);
      const twice = { limit: 1_000_000, count: 1, percent: 33.33 };
      t.strictSame(await expect("a repeated limit is answered twice, in order", [1_000_000, 5_000_000, 1_000_000]), [
        twice,
        { limit: 5_000_000, count: 0, percent: 0 },
        twice,
      ]);
      for (const none of [[], null, "", " , "]) t.strictSame(await expect(`none: ${JSON.stringify(none)}`, none), []);
      const { json } = await post(base, { ...GROUP });
      t.strictSame(
        (json.years as Json[]).map((year) => year.exceeding),
        [[], [], [], [], []],
        "absent: an empty list every year",
      );
      const { json: repeated } = await get(base, `${GROUP_QUERY}&years=1&limits=1000000&limits=1000000`);
      t.strictSame((repeated.total as Json).exceeding, [twice, twice], "GET: a repeated parameter, twice");
    });

    t.test(`${engine}: lines of business, groups without peers`, async (t) => {
      const { json } = await post(base, { ...GROUP, lineOfBusinessId: [11], limits: LIMITS });
      t.strictSame((json.years as Json[])[2], empty(2023), "line 11 only: 2023's program and loss (line 12) drop out");
      t.strictSame((json.total as Json).paidLossCount, 4);
      const { json: none } = await post(base, { ...GROUP, naics: ["99"], limits: LIMITS });
      t.strictSame(
        none,
        {
          years: [2021, 2022, 2023, 2024, 2025].map(empty),
          total: { ...withoutYear(empty(0)), fromYear: 2021, toYear: 2025 },
        },
        "an empty group: every year present, counts 0, frequency, severity and percent null",
      );
    });
  }

  t.test("a peer-group call: the admission gate times it, a lookup it does not", async (t) => {
    const server = await startTestServer(t, knex, { asOf: LOSS_EXPERIENCE_AS_OF });
    const serviceMs = async () =>
      ((await (await fetch(`${server.url}/readyz`)).json()) as { admission: { serviceMs: number } }).admission
        .serviceMs;
    t.equal((await fetch(`${server.url}/commercialpolicybenchmark/v2.0/lossdetails/1`)).status, 200);
    t.equal(await serviceMs(), 0, "a loss event's details pass by the gate");
    t.equal((await post(server.url, { ...GROUP, years: 20, limits: LIMITS })).status, 200);
    t.ok((await serviceMs()) > 0, "the loss experience goes through it");
  });

  t.test("400s name the field, GET and POST", async (t) => {
    const problems = async (body: object) => {
      const { status, json } = await post(servers.index.url, body);
      return { status, errors: json.errors };
    };
    const years = (message: string) => [{ field: "years", message }];
    const limits = (message: string) => [{ field: "limits", message }];
    const positive = (text: string) => limits(`must be amounts greater than 0 after rounding to cents, not ${text}`);
    const cases: [string, object, { field: string; message: string }[]][] = [
      ["0 years is no default", { ...GROUP, years: 0 }, years("must be an integer from 1 to 20, not 0")],
      ["21 years", { ...GROUP, years: 21 }, years("must be an integer from 1 to 20, not 21")],
      ["a negative number of years", { ...GROUP, years: -5 }, years("must be an integer from 1 to 20, not -5")],
      ["years not an integer", { ...GROUP, years: 2.5 }, years('"2.5" is not an integer')],
      ["years of the wrong type", { ...GROUP, years: "five" }, years('"five" is not an integer')],
      ["years a boolean", { ...GROUP, years: true }, years("true is not an integer")],
      ["4 limits", { ...GROUP, limits: [1, 2, 3, 4] }, limits("must have at most 3 items")],
      ["4 limits in a string", { ...GROUP, limits: "1,2,3,4" }, limits("must have at most 3 items")],
      ["a limit of 0", { ...GROUP, limits: [0] }, positive("0")],
      ["a negative limit", { ...GROUP, limits: [1_000_000, -1] }, positive("-1")],
      ["a limit that rounds to 0", { ...GROUP, limits: [0.004] }, positive("0.004")],
      ["-0.004 rounds to 0 too", { ...GROUP, limits: ["-0.004"] }, positive("-0.004")],
      // A double would hold 0.005 here, which rounds to 0.01: the caller's own digits are read.
      [
        "digits a double cannot hold",
        { ...GROUP, limits: ["0.0049999999999999999"] },
        positive("0.0049999999999999999"),
      ],
      ["a limit that is no number", { ...GROUP, limits: ["abc"] }, limits('"abc" is not a number')],
      ["no number inside a list string", { ...GROUP, limits: "1000000,abc" }, limits('"abc" is not a number')],
      ["an object", { ...GROUP, limits: { limit: 1 } }, limits("an object is not a list")],
      [
        "the peer group's own rules, every problem at once",
        { exposureRangeLow: 5, exposureRangeHigh: 4, years: 0, limits: [0] },
        [
          { field: "naics", message: "is required" },
          { field: "coverageId", message: "is required" },
          { field: "exposureRangeHigh", message: "must not be less than exposureRangeLow (5)" },
          ...years("must be an integer from 1 to 20, not 0"),
          ...positive("0"),
        ],
      ],
      [
        "an unknown coverage",
        { ...GROUP, coverageId: 9 },
        [{ field: "coverageId", message: "9 is not a known coverage" }],
      ],
    ];
    for (const [name, body, expected] of cases)
      t.strictSame(await problems(body), { status: 400, errors: expected }, name);
    t.equal((await post(servers.sql.url, { ...GROUP, limits: [0.005] })).status, 200, "0.005 is 0.01: allowed");
    const query = async (params: string) => {
      const { status, json } = await get(servers.sql.url, `${GROUP_QUERY}&${params}`);
      return { status, errors: json.errors };
    };
    t.strictSame(await query("years=0"), { status: 400, errors: years("must be an integer from 1 to 20, not 0") });
    t.strictSame(await query("years=x"), { status: 400, errors: years('"x" is not an integer') });
    t.strictSame(await query("limits=1,2&limits=3,4"), { status: 400, errors: limits("must have at most 3 items") });
    t.strictSame(await query("limits=abc"), { status: 400, errors: limits('"abc" is not a number') });
    t.strictSame(await query("limits=0.004"), { status: 400, errors: positive("0.004") });
  });

  t.test("gRPC, gRPC-Web and Connect answer the same figures", async (t) => {
    const request = { ...GROUP, limits: LIMITS };
    const shaped = (message: Parameters<typeof messageJson>[1]) =>
      JSON.parse(
        Buffer.concat(messageJson(GetLossExperienceResponseSchema, message).chunks()).toString("utf8"),
      ) as unknown;
    const method = LossDetailsService.method.getLossExperience;
    for (const engine of ENGINES) {
      const baseUrl = servers[engine].url;
      t.strictSame(shaped(await callWithGrpcJs(baseUrl, method, request)), EXPECTED, `@grpc/grpc-js (${engine})`);
      const transports: [string, Transport][] = [
        ["gRPC", createGrpcTransport({ baseUrl })],
        ["gRPC-Web", createGrpcWebTransport({ baseUrl, httpVersion: "1.1" })],
        ["Connect", createConnectTransport({ baseUrl, httpVersion: "1.1" })],
        ["Connect GET", createConnectTransport({ baseUrl, httpVersion: "1.1", useHttpGet: true })],
      ];
      for (const [protocol, transport] of transports) {
        const answer = await createClient(LossDetailsService, transport).getLossExperience(request);
        t.strictSame(shaped(answer), EXPECTED, `${protocol} (${engine})`);
        t.equal(answer.total!.programCount, 7n, "counts are int64");
        t.equal(answer.years[0]!.severity, undefined, "a null severity is an unset field");
      }
    }
    const refused = (input: object) =>
      callWithGrpcJs(servers.index.url, method, { ...GROUP, ...input }).then(
        () => ({ code: 0, details: "answered" }),
        (error: grpc.ServiceError) => ({ code: error.code, details: decodeURIComponent(error.details) }),
      );
    t.match(
      await refused({ years: 0 }),
      { code: 3, details: /years: must be an integer from 1 to 20, not 0/ },
      "gRPC: 0 years is invalid_argument naming years",
    );
    t.match(
      await refused({ limits: [1, 2, 3, 4] }),
      { code: 3, details: /limits: must have at most 3 items/ },
      "gRPC: 4 limits",
    );
    t.match(
      await refused({ limits: [Number.NaN] }),
      { code: 3, details: /limits: must be amounts greater than 0 after rounding to cents, not NaN/ },
      "gRPC: NaN is no amount",
    );
    const connect = createClient(
      LossDetailsService,
      createGrpcWebTransport({ baseUrl: servers.sql.url, httpVersion: "1.1" }),
    );
    const error = await connect
      .getLossExperience({ ...GROUP, limits: [0.004] })
      .catch((e: unknown) => ConnectError.from(e));
    t.match(
      error,
      {
        code: Code.InvalidArgument,
        rawMessage: /limits: must be amounts greater than 0 after rounding to cents, not 0.004/,
      },
      "gRPC-Web: a limit that rounds to 0",
    );
  });

  t.test("under the disclosure rule, years are withheld, the request never refused", async (t) => {
    // One company is enough and the two largest may hold everything: only the source share decides.
    const sources: DisclosureRule = {
      kind: "standard",
      minCompanies: 1,
      maxTopTwoShareBasisPoints: 10_000,
      maxSourceShareBasisPoints: 2_500,
    };
    const withheld = (year: Json, condition: string, threshold: number) => ({
      ...year,
      programCount: null,
      frequencyPer100: null,
      withheld: { condition, threshold },
    });
    const bySource = {
      years: [
        // One partner holds 2021's one program: 100% of its partner programs. Loss figures stay.
        withheld(Y2021, "max_source_share", 25),
        // An empty year breaks min_companies, whatever the threshold.
        withheld(Y2022, "min_companies", 1),
        Y2023, // curated: public
        Y2024,
        Y2025, // four partners, one program each: 25% passes
      ],
      // Its own set passes (five partners, 20% each), but its count less 2023-2025's would be 2021's.
      total: withheld(TOTAL, "max_source_share", 25),
    };
    const companies: DisclosureRule = { ...sources, minCompanies: 3, maxSourceShareBasisPoints: 10_000 };
    const byCompanies = {
      years: [Y2021, Y2022, Y2023, Y2024, Y2025].map((year) => withheld(year, "min_companies", 3)),
      total: withheld(TOTAL, "min_companies", 3), // two companies in all: its own set fails
    };
    for (const engine of ENGINES) {
      const options = { asOf: LOSS_EXPERIENCE_AS_OF, ...(engine === "index" && { peerIndex }) };
      const guarded = await startTestServer(t, knex, { ...options, disclosure: sources });
      t.strictSame(
        await post(guarded.url, { ...GROUP, limits: LIMITS }),
        { status: 200, json: bySource },
        `${engine}: withheld years, and the total after the oldest of them`,
      );
      const strict = await startTestServer(t, knex, { ...options, disclosure: companies });
      t.strictSame(
        await post(strict.url, { ...GROUP, limits: LIMITS }),
        { status: 200, json: byCompanies },
        `${engine}: every year and the total's own set withheld`,
      );
    }
  });
});

/** A year's members but `year`, for a total. */
function withoutYear({ year: _, ...figures }: Json): Json {
  return figures;
}
