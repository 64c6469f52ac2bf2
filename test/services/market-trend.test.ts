// The market trend's rules (SEMANTICS.md section 13) at their edges, on a hand-built
// data set whose figures are worked out below: period bounds from the as-of date on
// month ends, programs and loss dates exactly on a bound, a loss with only a filing
// date, change percentages against a zero or missing median, the input rules and
// their 400s, and withheld periods under the disclosure rule. Over REST (both engines),
// gRPC (@grpc/grpc-js) and Connect.
import t from "tap";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import type * as grpc from "@grpc/grpc-js";
import { GetMarketTrendResponseSchema, MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";
import { messageJson } from "../../src/transcoding/json-writer.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { insertTrendFixture, TREND_AS_OF } from "../fixtures/trend-fixture.js";

const PATH = "/commercialpolicybenchmark/v2.0/trend/getmarkettrend";
const GROUP = { naics: ["52"], coverageId: 1, exposureRangeLow: 0, exposureRangeHigh: 10_000_000 };
const quartiles = (
  count: number,
  firstQuartile: number | null,
  median: number | null,
  thirdQuartile: number | null,
) => ({ count, firstQuartile, median, thirdQuartile });
const NONE = quartiles(0, null, null, null);

/** Periods of 6 months from 2026-08-31, as worked out from the fixture's comments. */
const PERIOD_0 = {
  periodStart: "2026-02-28",
  periodEnd: "2026-08-31",
  programCount: 2, // programs 1 (on the end) and 3
  companyCount: 2,
  limit: quartiles(2, 1_500_000, 2_000_000, 2_500_000),
  // [10000, 20000.01]: 12500.0025, 15000.005 and 17500.0075, rounded half away from zero
  premium: quartiles(2, 12_500, 15_000.01, 17_500.01),
  retention: quartiles(1, 0, 0, 0), // program 3 has none; 0 counts
  // RPMs 10000 and 20000.01 * 10^6 / 3 * 10^6 = 6666.67: 7500.0025, 8333.335, 9166.6675
  rpm: quartiles(2, 7_500, 8_333.34, 9_166.67),
  lossCount: 1, // loss 4, filed 2026-08-31 at noon: its date is the period's end
  limitMedianChangePercent: 33.33, // 100 (2,000,000 - 1,500,000) / 1,500,000
  premiumMedianChangePercent: 100, // 100 (15000.005 - 7500) / 7500 = 100.0000667: from the unrounded median
  rpmMedianChangePercent: 66.67, // 100 (8333.335 - 5000) / 5000
  withheld: null,
};
const PERIOD_1 = {
  periodStart: "2025-08-31", // A - 12 months, not 2026-02-28 - 6 months (2025-08-28)
  periodEnd: "2026-02-28",
  programCount: 2, // programs 2 (on the end) and 5
  companyCount: 1,
  limit: quartiles(2, 1_250_000, 1_500_000, 1_750_000),
  premium: quartiles(2, 6_250, 7_500, 8_750),
  retention: quartiles(2, 1_250, 1_500, 1_750),
  rpm: quartiles(2, 5_000, 5_000, 5_000),
  lossCount: 2, // loss 1 (only a filing date, on the end) and loss 2 (accident at 23:00 on the end)
  limitMedianChangePercent: null, // the older median limit is 0
  premiumMedianChangePercent: 1400, // 100 (7500 - 500) / 500
  rpmMedianChangePercent: null, // the older period has no RPM
  withheld: null,
};
const PERIOD_2 = {
  periodStart: "2025-02-28",
  periodEnd: "2025-08-31",
  programCount: 2, // programs 4 (on the end) and 8; program 7, on the start, is not
  companyCount: 2,
  limit: quartiles(1, 0, 0, 0),
  premium: quartiles(2, 250, 500, 750),
  retention: quartiles(1, 500, 500, 500),
  rpm: NONE, // a zero limit and a missing one: no RPM
  lossCount: 1, // loss 3: its accident date, not its filing date
  limitMedianChangePercent: null, // the oldest period
  premiumMedianChangePercent: null,
  rpmMedianChangePercent: null,
  withheld: null,
};
const EXPECTED = { periodMonths: 6, periods: [PERIOD_0, PERIOD_1, PERIOD_2] };

t.test("the market trend", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  await insertTrendFixture(knex);
  const peerIndex = await startPeerIndex(t, knex, url);
  const servers = {
    sql: await startTestServer(t, knex, { asOf: TREND_AS_OF }),
    index: await startTestServer(t, knex, { asOf: TREND_AS_OF, peerIndex }),
  };
  const post = async (base: string, body: object) => {
    const res = await fetch(`${base}${PATH}`, { method: "POST", body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  for (const engine of ENGINES) {
    const base = servers[engine].url;
    t.test(`${engine}: figures worked out by hand`, async (t) => {
      t.strictSame(
        await post(base, { ...GROUP, periodMonths: 6, periods: 3 }),
        { status: 200, json: EXPECTED },
        "POST, 6 x 3 months",
      );
      const query =
        "naics=52&coverageId=1&exposureRangeLow=0&exposureRangeHigh=10000000&periodmonths=6&Periods=3&oldestTrailing=7&premium=-1";
      const res = await fetch(`${base}${PATH}?${query}`);
      t.strictSame(
        { status: res.status, json: await res.json() },
        { status: 200, json: EXPECTED },
        "GET, names in any case; trailing inputs and amounts ignored, even invalid ones",
      );
    });

    t.test(`${engine}: defaults, the leap day and an empty period`, async (t) => {
      const { status, json } = await post(base, { ...GROUP, periodMonths: null, periods: null });
      t.equal(status, 200);
      const periods = json.periods as { periodStart: string; periodEnd: string; programCount: number }[];
      t.equal(json.periodMonths, 12, "periodMonths 12 by default");
      t.strictSame(
        periods.map((p) => [p.periodStart, p.periodEnd]),
        [
          ["2025-08-31", "2026-08-31"],
          ["2024-08-31", "2025-08-31"],
          ["2023-08-31", "2024-08-31"],
          ["2022-08-31", "2023-08-31"],
          ["2021-08-31", "2022-08-31"],
        ],
        "5 periods by default, newest first",
      );
      const six = (await post(base, { ...GROUP, periodMonths: 6, periods: 5 })).json.periods as typeof periods;
      t.strictSame(
        six.slice(3).map((p) => [p.periodStart, p.periodEnd]),
        [
          ["2024-08-31", "2025-02-28"],
          ["2024-02-29", "2024-08-31"],
        ],
        "a leap year's February clamps to the 29th",
      );
      t.equal(six[3]!.programCount, 1, "program 7, on a period's end, is in that period");
      t.strictSame(
        six[4],
        {
          periodStart: "2024-02-29",
          periodEnd: "2024-08-31",
          programCount: 0,
          companyCount: 0,
          limit: NONE,
          premium: NONE,
          retention: NONE,
          rpm: NONE,
          lossCount: 0,
          limitMedianChangePercent: null,
          premiumMedianChangePercent: null,
          rpmMedianChangePercent: null,
          withheld: null,
        },
        "an empty period is present: counts 0, quartiles null",
      );
      const fall = six[2] as Record<string, unknown>;
      t.strictSame(
        [fall.limitMedianChangePercent, fall.premiumMedianChangePercent, fall.rpmMedianChangePercent],
        [-100, -98.75, null],
        "falls against program 7: 100 (0 - 4,000,000) / 4,000,000 and 100 (500 - 40,000) / 40,000; no RPM, no change",
      );
    });
  }

  t.test("400s name the field", async (t) => {
    const base = servers.sql.url;
    const errors = async (body: object) => {
      const { status, json } = await post(base, body);
      return { status, errors: json.errors };
    };
    const cases: [string, object, { field: string; message: string }[]][] = [
      [
        "0 is no default",
        { ...GROUP, periodMonths: 0, periods: 0 },
        [
          { field: "periodMonths", message: "must be one of 3, 6, 12, not 0" },
          { field: "periods", message: "must be an integer from 2 to 12, not 0" },
        ],
      ],
      [
        "values out of range",
        { ...GROUP, periodMonths: 5, periods: 13 },
        [
          { field: "periodMonths", message: "must be one of 3, 6, 12, not 5" },
          { field: "periods", message: "must be an integer from 2 to 12, not 13" },
        ],
      ],
      [
        "one period is too few",
        { ...GROUP, periods: 1 },
        [{ field: "periods", message: "must be an integer from 2 to 12, not 1" }],
      ],
      [
        "a negative number",
        { ...GROUP, periodMonths: -6 },
        [{ field: "periodMonths", message: "must be one of 3, 6, 12, not -6" }],
      ],
      [
        "wrong types",
        { ...GROUP, periodMonths: "six", periods: 2.5 },
        [
          { field: "periodMonths", message: '"six" is not an integer' },
          { field: "periods", message: '"2.5" is not an integer' },
        ],
      ],
      [
        "more than 120 months names periods",
        { ...GROUP, periodMonths: 12, periods: 11 },
        [{ field: "periods", message: "times periodMonths (12) must be at most 120 months, not 132" }],
      ],
      [
        "more than 120 months after the default periodMonths",
        { ...GROUP, periods: 12 },
        [{ field: "periods", message: "times periodMonths (12) must be at most 120 months, not 144" }],
      ],
      [
        "the product is checked only when both are valid",
        { ...GROUP, periodMonths: 7, periods: 12 },
        [{ field: "periodMonths", message: "must be one of 3, 6, 12, not 7" }],
      ],
      [
        "the peer group's own rules, every problem at once",
        { exposureRangeLow: 5, exposureRangeHigh: 4, periods: 0 },
        [
          { field: "naics", message: "is required" },
          { field: "coverageId", message: "is required" },
          { field: "exposureRangeHigh", message: "must not be less than exposureRangeLow (5)" },
          { field: "periods", message: "must be an integer from 2 to 12, not 0" },
        ],
      ],
      [
        "an unknown coverage",
        { ...GROUP, coverageId: 9 },
        [{ field: "coverageId", message: "9 is not a known coverage" }],
      ],
    ];
    for (const [name, body, problems] of cases)
      t.strictSame(await errors(body), { status: 400, errors: problems }, name);
    t.equal(
      (await post(base, { ...GROUP, periodMonths: 12, periods: 10 })).status,
      200,
      "exactly 120 months is allowed",
    );
    t.equal((await post(base, { ...GROUP, periodMonths: 3, periods: 12 })).status, 200, "12 x 3 months");
    const res = await fetch(`${base}${PATH}?naics=52&coverageId=1&exposureRangeLow=0&exposureRangeHigh=1&periods=0`);
    t.strictSame(
      ((await res.json()) as { errors: unknown }).errors,
      [{ field: "periods", message: "must be an integer from 2 to 12, not 0" }],
      "GET: 0 is refused too",
    );
  });

  t.test("gRPC (@grpc/grpc-js) and Connect answer the same figures", async (t) => {
    const request = { ...GROUP, periodMonths: 6, periods: 3 };
    const shaped = (message: Parameters<typeof messageJson>[1]) =>
      JSON.parse(
        Buffer.concat(messageJson(GetMarketTrendResponseSchema, message).chunks()).toString("utf8"),
      ) as unknown;
    for (const engine of ENGINES) {
      const method = MarketTrendService.method.getMarketTrend;
      t.strictSame(shaped(await callWithGrpcJs(servers[engine].url, method, request)), EXPECTED, `gRPC (${engine})`);
      const connect = createClient(
        MarketTrendService,
        createConnectTransport({ baseUrl: servers[engine].url, httpVersion: "1.1" }),
      );
      const answer = await connect.getMarketTrend(request);
      t.strictSame(shaped(answer), EXPECTED, `Connect (${engine})`);
      t.equal(answer.periods[0]!.programCount, 2n, "counts are int64");
      t.equal(answer.periods[1]!.limitMedianChangePercent, undefined, "a null change is an unset field");
    }
    const refused = await callWithGrpcJs(servers.index.url, MarketTrendService.method.getMarketTrend, {
      ...GROUP,
      periods: 0,
    }).then(
      () => ({ code: 0, details: "answered" }),
      (error: grpc.ServiceError) => ({ code: error.code, details: decodeURIComponent(error.details) }),
    );
    t.match(
      refused,
      { code: 3, details: /periods: must be an integer from 2 to 12, not 0/ },
      "gRPC: 0 periods is invalid_argument naming the field",
    );
    const connect = createClient(
      MarketTrendService,
      createConnectTransport({ baseUrl: servers.sql.url, httpVersion: "1.1" }),
    );
    const error = await connect
      .getMarketTrend({ ...GROUP, periodMonths: 12, periods: 11 })
      .catch((e: unknown) => ConnectError.from(e));
    t.match(
      error,
      { code: Code.InvalidArgument, rawMessage: /periods: times periodMonths \(12\) must be at most 120 months/ },
      "Connect: the product rule names periods",
    );
  });

  t.test("under the disclosure rule, periods are withheld, the request never refused", async (t) => {
    // One company is enough, the two largest may hold everything: only the source share decides.
    const rule = {
      kind: "standard",
      minCompanies: 1,
      maxTopTwoShareBasisPoints: 10_000,
      maxSourceShareBasisPoints: 2_500,
    } as const;
    const withheldPeriod = (
      period: { periodStart: string; periodEnd: string; lossCount: number },
      withheld: object,
    ) => ({
      periodStart: period.periodStart,
      periodEnd: period.periodEnd,
      programCount: null,
      companyCount: null,
      limit: null,
      premium: null,
      retention: null,
      rpm: null,
      lossCount: period.lossCount,
      limitMedianChangePercent: null,
      premiumMedianChangePercent: null,
      rpmMedianChangePercent: null,
      withheld,
    });
    const expected = {
      periodMonths: 6,
      periods: [
        // Curated programs only: public. Its changes are null: the older period is withheld.
        { ...PERIOD_0, limitMedianChangePercent: null, premiumMedianChangePercent: null, rpmMedianChangePercent: null },
        // Both programs from one partner: 100% of the partner programs.
        withheldPeriod(PERIOD_1, { condition: "max_source_share", threshold: 25 }),
        // No program has an RPM: that empty set has no company, which breaks min_companies.
        withheldPeriod(PERIOD_2, { condition: "min_companies", threshold: 1 }),
        // Program 7 has no source: a partner's.
        withheldPeriod(
          { periodStart: "2024-08-31", periodEnd: "2025-02-28", lossCount: 0 },
          { condition: "max_source_share", threshold: 25 },
        ),
        // An empty period breaks min_companies, whatever the threshold.
        withheldPeriod(
          { periodStart: "2024-02-29", periodEnd: "2024-08-31", lossCount: 0 },
          { condition: "min_companies", threshold: 1 },
        ),
      ],
    };
    const guarded = {
      sql: await startTestServer(t, knex, { asOf: TREND_AS_OF, disclosure: rule }),
      index: await startTestServer(t, knex, { asOf: TREND_AS_OF, disclosure: rule, peerIndex }),
    };
    for (const engine of ENGINES) {
      t.strictSame(
        await post(guarded[engine].url, { ...GROUP, periodMonths: 6, periods: 5 }),
        { status: 200, json: expected },
        engine,
      );
    }
    const standard = await startTestServer(t, knex, {
      asOf: TREND_AS_OF,
      disclosure: {
        kind: "standard",
        minCompanies: 5,
        maxTopTwoShareBasisPoints: 8_500,
        maxSourceShareBasisPoints: 2_500,
      },
    });
    const { status, json } = await post(standard.url, { ...GROUP, periodMonths: 6, periods: 3 });
    t.equal(status, 200, "the standard rule withholds every thin period but answers");
    t.strictSame(
      (json.periods as { withheld: unknown; lossCount: number }[]).map((p) => [p.withheld, p.lossCount]),
      [
        [{ condition: "min_companies", threshold: 5 }, 1],
        [{ condition: "min_companies", threshold: 5 }, 2],
        [{ condition: "min_companies", threshold: 5 }, 1],
      ],
      "the first breaking set names the condition; loss counts are public",
    );
  });
});
