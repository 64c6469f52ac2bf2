import t from "tap";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS, type BandScale } from "../../src/benchmark/bands.js";
import { createTestDatabase } from "../helpers/database.js";
import { ENGINES, startPeerIndex } from "../helpers/peer-index.js";
import { startTestServer } from "../helpers/server.js";
import { FIXTURE_AS_OF, FIXTURE_GROUP_A as GROUP_A, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";

// Figures of test/fixtures/analytics-fixture.ts, worked out by hand from SEMANTICS.md.
const P = "/commercialpolicybenchmark/v2.0";

/** Peer group B: NAICS 31 (company 7 alone), programs 12-15 on the band edges. */
const GROUP_B = { naics: ["31"], coverageId: 1, exposureRangeLow: 0, exposureRangeHigh: 1e15 };

interface DistributionJson {
  chartDescription: string;
  bands: unknown[];
}
interface AssessmentJson {
  totalProgramCount?: number;
  totalLossCount?: number;
  limitDistribution: DistributionJson;
  premiumDistribution: DistributionJson;
  retentionDistribution: DistributionJson;
}

function bands(scale: BandScale, counts: Record<number, number>) {
  return scale.labels.map((label, i) => ({ bandSeq: i + 1, bandDescription: label, programCount: counts[i + 1] ?? 0 }));
}
const sentence = (what: string, amount: string, nth: string) =>
  `The selected company's ${what} of ${amount} puts it in the ${nth} percentile in relation to its peers.`;

for (const engine of ENGINES)
  t.test(`hand-worked figures (${engine})`, async (t) => {
    const { knex, url } = await createTestDatabase(t);
    await insertAnalyticsFixture(knex);
    const peerIndex = engine === "index" ? await startPeerIndex(t, knex, url) : undefined;
    const server = await startTestServer(t, knex, { asOf: FIXTURE_AS_OF, peerIndex });
    const post = async <T = unknown>(path: string, body: object) => {
      const res = await fetch(`${server.url}${P}/${path}`, { method: "POST", body: JSON.stringify(body) });
      return (await res.json()) as T;
    };
    const get = async <T = unknown>(path: string, query: Record<string, string>) =>
      (await (await fetch(`${server.url}${P}/${path}?${new URLSearchParams(query)}`)).json()) as T;
    const count = (body: object) => post("assessment/getTotalProgramCount", { ...GROUP_A, ...body });
    const losses = (body: object) => post("assessment/getTotalLossCount", { ...GROUP_A, ...body });

    t.test("GET assessment of group A", async (t) => {
      const answer = await get("assessment/getassessmentdata", {
        naics: "52",
        coverageId: "1",
        lineOfBusinessId: "0",
        exposureType: "Revenues",
        exposureRangeLow: "0",
        exposureRangeHigh: "10000000",
        limit: "1000000",
        premium: "12500.5",
        retention: "25000",
      });
      t.same(answer, {
        totalProgramCount: 5, // programs 1, 3, 4, 7, 11; 2 is on the exclusive start, 5 after the as-of date
        totalLossCount: 4, // losses 1-4, no loss-year filter in the GET form
        limitDistribution: {
          // limits 0, 1M, 1M, 3M (program 11 has none): 1M is in 750K-1M; L=1, E=2, N=4 gives 50
          chartDescription: sentence("limit", "$1,000,000", "50th"),
          bands: bands(LIMIT_BANDS, { 1: 1, 5: 2, 7: 1 }),
        },
        premiumDistribution: {
          // premiums 0, 7000, 10000, 12500.50, 30000: 10K is in 5K-10K; L=3, E=1, N=5 gives 70
          chartDescription: sentence("premium", "$12,500.50", "70th"),
          bands: bands(PREMIUM_BANDS, { 1: 1, 4: 2, 5: 1, 6: 1 }),
        },
        retentionDistribution: {
          // retentions 0, 1000, 25000, 25000: 1K is in 0-1K, 25K in 15K-25K; L=2, E=2, N=4 gives 75
          chartDescription: sentence("retention", "$25,000", "75th"),
          bands: bands(RETENTION_BANDS, { 1: 2, 6: 2 }),
        },
      });
    });

    t.test("POST assessment: the three distributions; a tie counted half rounds 12.5 up", async (t) => {
      const answer = await post<AssessmentJson>("assessment/getassessmentdata", { ...GROUP_A, limit: 0 });
      t.same(Object.keys(answer), ["limitDistribution", "premiumDistribution", "retentionDistribution"]);
      // limit 0: L=0, E=1, N=4 gives 12.5, rounded half away from zero to 13
      t.equal(answer.limitDistribution.chartDescription, sentence("limit", "$0", "13th"));
      // premium 0: L=0, E=1, N=5 gives 10
      t.equal(answer.premiumDistribution.chartDescription, sentence("premium", "$0", "10th"));
    });

    t.test("REST amounts are the caller's exact decimals, not doubles", async (t) => {
      const raw = async (body: string) => {
        const res = await fetch(`${server.url}${P}/assessment/getassessmentdata`, { method: "POST", body });
        return { status: res.status, body: (await res.json()) as AssessmentJson };
      };
      const group = JSON.stringify(GROUP_A).slice(1, -1);
      // 0.0049999999999999999 rounds to 0.00 (a double would make it 0.005, so $0.01)
      const tiny = await raw(`{${group}, "premium": 0.0049999999999999999, "retention": "-0.0049999999999999999"}`);
      t.equal(tiny.status, 200, "-0.0049999999999999999 is 0 in cents, not negative");
      t.equal(tiny.body.premiumDistribution.chartDescription, sentence("premium", "$0", "10th"));
      // 18 significant digits: a double would print $12,345,678,901,234,568
      const huge = await raw(`{${group}, "limit": 12345678901234567.89}`);
      t.equal(huge.body.limitDistribution.chartDescription, sentence("limit", "$12,345,678,901,234,567.89", "100th"));
    });

    t.test("band edges: (lower, upper], 1B in 500M-1B", async (t) => {
      const answer = await post<AssessmentJson>("assessment/getassessmentdata", GROUP_B);
      // limits 100K | 100K+1c | 1B | 1B+1c
      t.same(answer.limitDistribution.bands, bands(LIMIT_BANDS, { 1: 1, 2: 1, 17: 1, 18: 1 }));
      // premiums 1000, 1000.01, 0.01, 10M
      t.same(answer.premiumDistribution.bands, bands(PREMIUM_BANDS, { 1: 2, 2: 1, 17: 1 }));
      // retentions 25M, 25M+1c, 0, 1000
      t.same(answer.retentionDistribution.bands, bands(RETENTION_BANDS, { 1: 2, 16: 1, 17: 1 }));
    });

    t.test("RPM: quartiles interpolate, RPMs are cents before statistics", async (t) => {
      // group A RPMs: 10000 (p1), 12500.50 (p3), 10000 (p7); p4 has limit 0, p11 none
      t.same(await post("assessment/getrpmdistributiondata", { ...GROUP_A, premium: 12500.5, limit: 1000000 }), {
        firstQuartile: 10000, // h = 0.5 between 10000 and 10000
        median: 10000,
        fourthQuartile: 11250.25, // h = 1.5: 10000 + 0.5 * 2500.50
        maxRpm: 12500.5,
        clientBar: 12500.5,
        nthPercent: 83.33, // L=2, E=1, N=3: 83.333...
        chartDescription: sentence("Rate Per Million(RPM)", "$12,500.50", "83rd"),
      });
      // group B RPMs: 10000.00, 10000.10 (1000.01/100000.01 = 0.01000009999...), 0.00 (0.01 per 1B), 10000.00 (10M per 1B+1c)
      const b = await get("assessment/getrpmdistributiondata", {
        naics: "31",
        coverageId: "1",
        exposureRangeLow: "0",
        exposureRangeHigh: "1e15",
        premium: "1.005",
        limit: "100",
      });
      t.same(b, {
        firstQuartile: 7500, // h = 0.75: 0 + 0.75 * 10000
        median: 10000,
        fourthQuartile: 10000.03, // h = 2.25: 10000 + 0.25 * 0.10 = 10000.025, half away from zero
        maxRpm: 10000.1,
        clientBar: 10100, // premium 1.005 is 1.01 in cents (not 1.00 as binary floating point has it): 1.01e6 / 100
        nthPercent: 100,
        chartDescription: sentence("Rate Per Million(RPM)", "$10,100", "100th"),
      });
    });

    t.test("time windows: the default, clamped months, half-open edges", async (t) => {
      t.equal(await count({}), 5);
      // O=6: (2026-02-28, 2026-08-31]: programs 1 and 7; 11 is on the exclusive start
      t.equal(await count({ oldestTrailing: 6 }), 2);
      // O=12, N=6: (2025-08-31, 2026-02-28]: program 11 on the inclusive end
      t.equal(await count({ oldestTrailing: 12, newestTrailing: 6 }), 1);
      // N alone: O=24, N=12: (2024-08-31, 2025-08-31]: programs 3 and 4
      t.equal(await count({ newestTrailing: 12 }), 2);
      t.equal(await count({ oldestTrailing: 0, newestTrailing: null }), 5, "0 and null mean not given");
    });

    t.test("peer matching: 3-digit NAICS, organization type, LOB, exposure types", async (t) => {
      t.equal(await count({ naics: ["524"] }), 4, "companies 1 and 2; company 3's code has 2 digits");
      t.equal(await count({ naics: "54,52" }), 6, "company 4's program 6 joins");
      t.equal(await count({ organizationType: ["pub"] }), 1, "codes match case-insensitively: company 1");
      t.equal(await count({ organizationType: ["All", "PUB"] }), 5, "All means every type");
      t.equal(await count({ organizationType: ["XYZ"] }), 0, "a code no company has matches nothing");
      t.equal(await count({ lineOfBusinessId: [12] }), 1, "program 4");
      t.equal(await count({ lineOfBusinessId: "11, 12" }), 5);
      t.equal(
        await count({ exposureType: "employees", exposureRangeLow: 0, exposureRangeHigh: 1000 }),
        1,
        "only company 1 has employees",
      );
      // company 1 has 100 employees: fractional bounds around it, and bounds beyond bigint
      t.equal(await count({ exposureType: "Employees", exposureRangeLow: 99.5, exposureRangeHigh: 100.5 }), 1);
      t.equal(await count({ exposureType: "Employees", exposureRangeLow: 100.01, exposureRangeHigh: 1e30 }), 0);
      t.equal(await count({ exposureType: "Employees", exposureRangeLow: 0, exposureRangeHigh: 1e30 }), 1);
      t.equal(
        await count({ exposureType: "MARKET_CAP", exposureRangeLow: 5_000_000, exposureRangeHigh: 5_000_000 }),
        1,
        "bounds are inclusive",
      );
      // bounds are rounded to cents first: [1,000,000.00, 2,000,000.00] takes company 1 (program 1) and
      // company 2 at exactly 2M (programs 3, 7, 11); unrounded, 1,999,999.995 would leave company 2 out
      t.equal(await count({ exposureRangeLow: 1_000_000.004, exposureRangeHigh: 1_999_999.995 }), 4);
    });

    t.test("loss counts: loss years, lossYear wins", async (t) => {
      t.equal(await losses({}), 4);
      t.equal(await losses({ lossYear: 2024 }), 2, "loss 2 by filing year, loss 3 by accident year");
      t.equal(
        await losses({ lossYear: 2024, oldestLossYear: 5, newestLossYear: 1 }),
        2,
        "the range is ignored, not even checked",
      );
      t.equal(await losses({ lossYear: 2024, oldestLossYear: "abc", newestLossYear: [1, [2]] }), 2, "not even read");
      t.equal(await losses({ oldestLossYear: 2024 }), 3);
      t.equal(await losses({ newestLossYear: 2024 }), 3);
      t.equal(await losses({ oldestLossYear: 2024, newestLossYear: 2025 }), 3);
    });

    t.test("limit adequacy: cases in order, coverage, median limit of the default window", async (t) => {
      const cases = [
        { lossEventID: 1, lossAmount: 500000 },
        { lossEventID: 2, lossAmount: 1000000 },
        { lossEventID: 4, lossAmount: 1000000 }, // same amount: by id
        { lossEventID: 3, lossAmount: 2500000 },
      ];
      const expected = {
        clientLimit: 1000000,
        medianLimit: 1000000,
        percentCovered: 75,
        maxLoss: 2500000,
        averageLoss: 1250000,
        listOfCases: cases,
      };
      const query = {
        Naics: "52",
        CoverageId: "1",
        LobId: "0",
        ExposureType: "Revenues",
        ExposureRangeLow: "0",
        ExposureRangeHigh: "10000000",
        ClientLimit: "1000000",
      };
      t.same(await get("lossdetails/limitadequacy", query), expected, "GET, capitalized names");
      t.same(
        await get("lossdetails/getlimitadequacydata", { ...query, lossYear: "2024" }),
        expected,
        "the other path; GET ignores loss years",
      );
      t.same(
        await post("lossdetails/getlimitadequacydata", { ...GROUP_A, clientlimit: 1000000, lossYear: 2024 }),
        {
          clientLimit: 1000000,
          medianLimit: 1000000,
          percentCovered: 50,
          maxLoss: 2500000,
          averageLoss: 1750000,
          listOfCases: [cases[1], cases[3]],
        },
        "POST applies lossYear",
      );
      t.match(
        await post("lossdetails/getlimitadequacydata", { ...GROUP_A, limit: 2000000 }),
        { clientLimit: 2000000, percentCovered: 75 },
        "limit stands in for clientLimit",
      );
      t.match(
        await post("lossdetails/getlimitadequacydata", { ...GROUP_A, clientLimit: 0, limit: 2000000 }),
        { clientLimit: 0, percentCovered: 0 },
        "clientLimit 0 is given and wins",
      );
    });

    t.test("an empty peer group: zeros, every band, 0th", async (t) => {
      const empty = { ...GROUP_A, naics: ["11"] };
      const assessment = await get<AssessmentJson>("assessment/getassessmentdata", {
        naics: "11",
        coverageId: "1",
        exposureRangeLow: "0",
        exposureRangeHigh: "1",
        limit: "5",
      });
      t.equal(assessment.totalProgramCount, 0);
      t.equal(assessment.totalLossCount, 0);
      t.same(assessment.limitDistribution, {
        chartDescription: sentence("limit", "$5", "0th"),
        bands: bands(LIMIT_BANDS, {}),
      });
      t.same(await post("assessment/getrpmdistributiondata", { ...empty, premium: 1, limit: 1 }), {
        firstQuartile: 0,
        median: 0,
        fourthQuartile: 0,
        maxRpm: 0,
        clientBar: 1000000,
        nthPercent: 0,
        chartDescription: sentence("Rate Per Million(RPM)", "$1,000,000", "0th"),
      });
      t.same(await post("lossdetails/getlimitadequacydata", empty), {
        clientLimit: 0,
        medianLimit: 0,
        percentCovered: 0,
        maxLoss: 0,
        averageLoss: 0,
        listOfCases: [],
      });
    });

    t.test("gRPC answers the same figures", async (t) => {
      const client = createClient(AssessmentService, createGrpcTransport({ baseUrl: server.url }));
      const rpm = await client.getRpmDistributionData({ ...GROUP_A, premium: 12500.5, limit: 1000000 });
      t.equal(rpm.fourthQuartile, 11250.25);
      t.equal(rpm.nthPercent, 83.33);
      const programs = await client.getTotalProgramCount({ ...GROUP_A, oldestTrailing: 6 });
      t.equal(programs.totalProgramCount, 2n);
    });
  });
