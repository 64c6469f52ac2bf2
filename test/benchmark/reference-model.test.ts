// Hand-worked answers for the reference model of test/benchmark/reference, so the
// property test compares the service with something checked on its own first.
import t from "tap";
import { getAssessment, postAssessment } from "./reference/assessment.js";
import { bandSeqOf, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "./reference/bands.js";
import { totalLossCount, totalProgramCount } from "./reference/counts.js";
import { roundRatio, roundRatioTo, toCents } from "./reference/exact.js";
import { limitAdequacy } from "./reference/limit-adequacy.js";
import { lossExperience } from "./reference/loss-experience.js";
import type { ReferenceDataset, ReferenceRequest } from "./reference/model-types.js";
import { rpmCents, rpmDistribution } from "./reference/rpm.js";
import { percentileRank, quantile } from "./reference/statistics.js";
import { money, ordinal } from "./reference/text.js";
import { inWindow, subtractMonths, timeWindow } from "./reference/time-window.js";
import { marketTrend } from "./reference/trend.js";

const AS_OF = "2026-08-31";

const companyColumns = [
  "company_id",
  "company_name",
  "organization_type",
  "naics",
  "revenues",
  "employees",
  "market_cap",
];
const programColumns = [
  "program_id",
  "company_id",
  "coverage_id",
  "line_of_business_id",
  "effective_date",
  "limit",
  "premium",
  "retention",
];
const lossColumns = [
  "loss_event_id",
  "company_id",
  "coverage_id",
  "line_of_business_id",
  "accident_date",
  "filing_date",
  "total_amount",
];

function rows(columns: string[], values: string[][]): Record<string, string>[] {
  return values.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i] ?? ""])));
}

const dataset: ReferenceDataset = {
  companies: rows(companyColumns, [
    ["1", "A", "PUB", "524126", "1000000", "10", "5000000"],
    ["2", "B", "prv", "52", "2000000", "", ""],
    ["3", "C", "PSB", "", "1500000", "20", ""],
    ["4", "D", "PRV", "523110", "", "50", "100"],
  ]),
  programs: rows(programColumns, [
    ["1", "1", "1", "1", "2026-08-31", "1000000", "1005", "1000"],
    ["2", "1", "1", "2", "2024-08-31", "100000", "500", "0"],
    ["3", "2", "1", "1", "2024-09-01", "100000", "1000", ""],
    ["4", "2", "1", "2", "2026-02-28", "1000000", "2000", "1000.01"],
    ["5", "1", "1", "1", "2026-09-01", "5", "5", "5"],
    ["6", "3", "1", "1", "2026-01-01", "1", "1", "1"],
    ["7", "2", "2", "3", "2026-01-01", "1", "1", "1"],
    ["8", "1", "1", "1", "2025-12-01", "", "0", "5000"],
    ["9", "4", "1", "1", "2026-03-01", "0", "100", "2000"],
  ]),
  losses: rows(lossColumns, [
    ["1", "1", "1", "1", "2025-03-05T14:30:00", "2025-06-01", "500000"],
    ["2", "2", "1", "2", "", "2024-12-31", "1000000"],
    ["3", "2", "1", "1", "2023-12-31", "2024-01-02", "500000"],
    ["4", "3", "1", "1", "2025-01-01", "2025-01-01", "7"],
    ["5", "1", "2", "3", "2025-01-01", "2025-01-01", "7"],
    ["6", "1", "1", "1", "2025-01-01", "2025-02-01", "2000000"],
    ["7", "2", "1", "1", "", "2022-05-05T00:00:00", "1"],
  ]),
};

const base: ReferenceRequest = {
  naics: ["52"],
  coverageId: 1,
  lineOfBusinessId: [0],
  exposureType: "Revenues",
  exposureRangeLow: "0",
  exposureRangeHigh: "10000000",
  organizationType: [],
  premium: "2000",
  limit: "1000000",
  retention: "1000",
};

t.test("exact arithmetic and text", async (t) => {
  t.equal(toCents("1.005"), 101n, "1.005 rounds half away from zero to 1.01");
  t.equal(toCents("1234.565"), 123457n);
  t.equal(toCents("7"), 700n);
  t.equal(roundRatio({ num: 5n, den: 2n }), 3n, "2.5 -> 3");
  t.equal(roundRatio({ num: 7n, den: 3n }), 2n);
  t.equal(roundRatioTo({ num: 1n, den: 8n }, 2), 13n, "0.125 -> 0.13");
  t.equal(money(0n), "$0");
  t.equal(money(150_000_000n), "$1,500,000");
  t.equal(money(250_050n), "$2,500.50");
  t.equal(money(99n), "$0.99");
  t.equal(money(123_456_789n), "$1,234,567.89");
  t.equal(money(100_000n), "$1,000");
  const ordinals = [0n, 1n, 2n, 3n, 4n, 11n, 12n, 13n, 21n, 22n, 23n, 100n, 101n, 111n, 112n, 113n];
  t.same(ordinals.map(ordinal), [
    "0th",
    "1st",
    "2nd",
    "3rd",
    "4th",
    "11th",
    "12th",
    "13th",
    "21st",
    "22nd",
    "23rd",
    "100th",
    "101st",
    "111th",
    "112th",
    "113th",
  ]);
});

t.test("time window: month subtraction clamps to the month's end; start < date <= end", async (t) => {
  t.equal(subtractMonths("2026-08-31", 6), "2026-02-28");
  t.equal(subtractMonths("2024-03-31", 1), "2024-02-29");
  t.equal(subtractMonths("2026-08-31", 24), "2024-08-31");
  t.equal(subtractMonths("2026-01-15", 3), "2025-10-15");
  t.equal(subtractMonths("2026-08-31", 9), "2025-11-30");
  t.same(timeWindow(AS_OF, null, null), { start: "2024-08-31", end: "2026-08-31" });
  t.same(timeWindow(AS_OF, 0, 6), { start: "2024-08-31", end: "2026-02-28" }, "only N given: O = 24");
  const six = timeWindow(AS_OF, 6, 0);
  t.notOk(inWindow("2026-02-28", six), "the start is exclusive");
  t.ok(inWindow("2026-03-01", six));
  t.ok(inWindow("2026-08-31", six), "the end is inclusive");
  t.notOk(inWindow("2026-09-01", six));
  t.ok(inWindow("2026-02-28", timeWindow(AS_OF, 12, 6)), "the clamped end is inclusive");
});

t.test("bands are (lower, upper], the first holding 0", async (t) => {
  t.equal(bandSeqOf(LIMIT_BANDS, 0n), 1);
  t.equal(bandSeqOf(LIMIT_BANDS, toCents("100000")), 1, "exactly 100K: 0-100K");
  t.equal(bandSeqOf(LIMIT_BANDS, toCents("100000.01")), 2);
  t.equal(bandSeqOf(LIMIT_BANDS, toCents("1000000")), 5, "exactly 1M: 750K-1M");
  t.equal(bandSeqOf(LIMIT_BANDS, toCents("1000000000")), 17, "exactly 1B: 500M-1B");
  t.equal(bandSeqOf(LIMIT_BANDS, toCents("1000000000.01")), 18);
  t.equal(bandSeqOf(PREMIUM_BANDS, toCents("10000000")), 17);
  t.equal(bandSeqOf(RETENTION_BANDS, toCents("25000000")), 16);
  t.equal(bandSeqOf(RETENTION_BANDS, toCents("2500000.01")), 14);
  t.equal(LIMIT_BANDS.labels.length, 18);
  t.equal(PREMIUM_BANDS.labels.length, 18);
  t.equal(RETENTION_BANDS.labels.length, 17);
});

t.test("percentile rank counts ties half; quantiles interpolate", async (t) => {
  t.same(percentileRank([1n, 2n, 2n, 3n], 2n), { num: 100n * 4n, den: 8n }, "(1 + 2/2) / 4 = 50");
  t.equal(roundRatio(percentileRank([1n, 2n, 2n, 3n], 3n)), 88n, "87.5 -> 88");
  t.equal(roundRatio(percentileRank([], 3n)), 0n);
  t.same(quantile([40n, 10n, 30n, 20n], 1n, 4n), { num: 70n, den: 4n }, "17.5");
  t.same(quantile([10n, 20n, 30n, 40n], 2n, 4n), { num: 100n, den: 4n }, "25");
  t.same(quantile([10n, 20n, 30n, 40n], 3n, 4n), { num: 130n, den: 4n }, "32.5");
  t.same(quantile([7n], 3n, 4n), { num: 7n, den: 1n });
  t.same(quantile([], 1n, 2n), { num: 0n, den: 1n });
});

t.test("RPM is rounded to cents exactly", async (t) => {
  t.equal(rpmCents(toCents("1005"), toCents("1000000")), 100_500n, "1005.00");
  t.equal(rpmCents(toCents("1.005"), toCents("1000000")), 101n, "premium 1.01 after import rounding");
  t.equal(rpmCents(toCents("2.01"), toCents("400000")), 503n, "5.025 -> 5.03");
  t.equal(rpmCents(toCents("0.01"), toCents("3")), 333_333n, "3333.33");
  t.equal(rpmCents(toCents("1"), toCents("3000000")), 33n, "0.33");
  t.equal(rpmCents(toCents("0.01"), toCents("2000000")), 1n, "0.005 -> 0.01");
});

t.test("GET assessment over the hand-made rows", async (t) => {
  const answer = getAssessment(dataset, base, AS_OF);
  // Peers: companies 1 and 2 (3 has no NAICS, 4 no revenues); programs 1, 3, 4, 8
  // (2 sits on the exclusive start, 5 after the as-of date, 7 another coverage).
  t.equal(answer.totalProgramCount, 4);
  t.equal(answer.totalLossCount, 5, "losses 1, 2, 3, 6, 7; no loss-year filter");
  const limits = answer.limitDistribution;
  t.equal(
    limits.chartDescription,
    "The selected company's limit of $1,000,000 puts it in the 67th percentile in relation to its peers.",
  );
  t.same(
    limits.bands.filter((b) => b.programCount > 0),
    [
      { bandSeq: 1, bandDescription: "0-100K", programCount: 1 },
      { bandSeq: 5, bandDescription: "750K-1M", programCount: 2 },
    ],
  );
  t.equal(limits.bands.length, 18);
  const premiums = answer.premiumDistribution;
  t.equal(
    premiums.chartDescription,
    "The selected company's premium of $2,000 puts it in the 88th percentile in relation to its peers.",
  );
  t.same(
    premiums.bands.filter((b) => b.programCount > 0).map((b) => [b.bandSeq, b.programCount]),
    [
      [1, 2],
      [2, 2],
    ],
  );
  const retentions = answer.retentionDistribution;
  t.equal(
    retentions.chartDescription,
    "The selected company's retention of $1,000 puts it in the 17th percentile in relation to its peers.",
  );
  t.same(
    retentions.bands.filter((b) => b.programCount > 0).map((b) => [b.bandSeq, b.programCount]),
    [
      [1, 1],
      [2, 1],
      [3, 1],
    ],
  );
  t.equal(retentions.bands.length, 17);

  const noAmounts = postAssessment(dataset, { ...base, premium: null, limit: undefined, retention: null }, AS_OF);
  t.equal(
    noAmounts.limitDistribution.chartDescription,
    "The selected company's limit of $0 puts it in the 0th percentile in relation to its peers.",
  );
  t.equal(
    noAmounts.premiumDistribution.chartDescription,
    "The selected company's premium of $0 puts it in the 13th percentile in relation to its peers.",
    "one tie at 0 of 4: 12.5 -> 13",
  );
});

t.test("counts: windows, organization types, NAICS, exposure, LOBs", async (t) => {
  t.equal(totalProgramCount(dataset, { ...base, oldestTrailing: 6 }, AS_OF), 1, "2026-02-28 is the exclusive start");
  t.equal(totalProgramCount(dataset, { ...base, oldestTrailing: 12, newestTrailing: 6 }, AS_OF), 2, "programs 4 and 8");
  t.equal(totalProgramCount(dataset, { ...base, organizationType: ["PRV"] }, AS_OF), 2);
  t.equal(totalProgramCount(dataset, { ...base, organizationType: ["pub"] }, AS_OF), 2);
  t.equal(totalProgramCount(dataset, { ...base, organizationType: ["xyz"] }, AS_OF), 0);
  t.equal(totalProgramCount(dataset, { ...base, organizationType: ["all", "xyz"] }, AS_OF), 4);
  t.equal(totalProgramCount(dataset, { ...base, naics: ["524"] }, AS_OF), 2);
  t.equal(totalProgramCount(dataset, { ...base, naics: ["520"] }, AS_OF), 0, "company 2's code 52 has no third digit");
  t.equal(totalProgramCount(dataset, { ...base, lineOfBusinessId: [2] }, AS_OF), 1);
  t.equal(
    totalProgramCount(dataset, { ...base, exposureRangeLow: "1000000", exposureRangeHigh: "1000000" }, AS_OF),
    2,
    "inclusive range",
  );
  t.equal(totalProgramCount(dataset, { ...base, exposureRangeLow: "1000000.01" }, AS_OF), 2, "company 2 only");
  const employees: ReferenceRequest = { ...base, exposureType: "Employees", exposureRangeHigh: "50" };
  t.equal(totalProgramCount(dataset, employees, AS_OF), 3, "companies 1 and 4: programs 1, 8, 9");
  t.equal(
    totalProgramCount(dataset, { ...base, exposureType: "Market Cap", exposureRangeHigh: "1e12" }, AS_OF),
    3,
    "companies 1 and 4",
  );
  t.equal(
    totalLossCount(dataset, { ...base, lossYear: 2025, oldestLossYear: 3000 }),
    2,
    "lossYear wins; losses 1 and 6",
  );
  t.equal(totalLossCount(dataset, { ...base, oldestLossYear: 2024 }), 3, "losses 1, 2, 6");
  t.equal(totalLossCount(dataset, { ...base, newestLossYear: 2024 }), 3, "losses 2 (filing year), 3, 7");
  t.equal(totalLossCount(dataset, { ...base, oldestLossYear: 2023, newestLossYear: 2024 }), 2);
});

t.test("RPM over the hand-made rows", async (t) => {
  // RPMs: program 1 1005.00, program 3 10000.00, program 4 2000.00 (program 8 has no limit).
  t.same(rpmDistribution(dataset, base, AS_OF), {
    firstQuartile: 1502.5,
    median: 2000,
    fourthQuartile: 6000,
    maxRpm: 10000,
    clientBar: 2000,
    nthPercent: 50,
    chartDescription:
      "The selected company's Rate Per Million(RPM) of $2,000 puts it in the 50th percentile in relation to its peers.",
  });
  const thirds = rpmDistribution(dataset, { ...base, premium: "1005", limit: "3000000" }, AS_OF);
  t.equal(thirds.clientBar, 335, "1005 / 3 = 335.00");
  t.equal(thirds.nthPercent, 0);
  const noLimit = rpmDistribution(dataset, { ...base, limit: null }, AS_OF);
  t.equal(noLimit.clientBar, 0);
  t.equal(
    noLimit.chartDescription,
    "The selected company's Rate Per Million(RPM) of $0 puts it in the 0th percentile in relation to its peers.",
  );
  const twoThirds = rpmDistribution(dataset, { ...base, premium: "1500", limit: "1000000" }, AS_OF);
  t.equal(twoThirds.nthPercent, 33.33, "1 of 3 below: 33.333...");
  const none = rpmDistribution(dataset, { ...base, naics: ["99"] }, AS_OF);
  t.same([none.firstQuartile, none.median, none.fourthQuartile, none.maxRpm, none.nthPercent], [0, 0, 0, 0, 0]);
});

t.test("limit adequacy over the hand-made rows", async (t) => {
  const all = limitAdequacy(dataset, { ...base, clientLimit: null }, AS_OF, "none");
  t.same(all, {
    clientLimit: 1000000,
    medianLimit: 1000000,
    percentCovered: 80,
    maxLoss: 2000000,
    averageLoss: 800000,
    listOfCases: [
      { lossEventID: 7, lossAmount: 1 },
      { lossEventID: 1, lossAmount: 500000 },
      { lossEventID: 3, lossAmount: 500000 },
      { lossEventID: 2, lossAmount: 1000000 },
      { lossEventID: 6, lossAmount: 2000000 },
    ],
  });
  const zero = limitAdequacy(dataset, { ...base, clientLimit: "0" }, AS_OF, "none");
  t.equal(zero.clientLimit, 0, "clientLimit 0 wins over limit");
  t.equal(zero.percentCovered, 0);
  const old = limitAdequacy(dataset, { ...base, newestLossYear: 2023, clientLimit: "1.5" }, AS_OF, "filter");
  t.equal(old.averageLoss, 250001, "(500000 + 1) / 2 rounds half up");
  t.equal(old.percentCovered, 50);
  t.equal(old.clientLimit, 1.5);
  const ignored = limitAdequacy(dataset, { ...base, newestLossYear: 2023 }, AS_OF, "none");
  t.equal(ignored.listOfCases.length, 5, "the GET form applies no loss-year filter");
  const employees = limitAdequacy(
    dataset,
    { ...base, exposureType: "Employees", exposureRangeHigh: "50" },
    AS_OF,
    "none",
  );
  t.equal(employees.medianLimit, 500000, "limits 0 and 1000000 (program 9's 0 counts)");
  const none = limitAdequacy(dataset, { ...base, naics: ["99"], limit: null }, AS_OF, "filter");
  t.same(none, { clientLimit: 0, medianLimit: 0, percentCovered: 0, maxLoss: 0, averageLoss: 0, listOfCases: [] });
});

t.test("market trend (SEMANTICS.md section 13), worked by hand", async (t) => {
  const trend = marketTrend(dataset, { ...base, periodMonths: 6, periods: 2 }, AS_OF);
  const q = (count: number, firstQuartile: number, median: number, thirdQuartile: number) => ({
    count,
    firstQuartile,
    median,
    thirdQuartile,
  });
  t.strictSame(trend, {
    periodMonths: 6,
    periods: [
      {
        // Program 1 (on the end); program 5 is after the as-of date.
        periodStart: "2026-02-28",
        periodEnd: "2026-08-31",
        programCount: 1,
        companyCount: 1,
        limit: q(1, 1_000_000, 1_000_000, 1_000_000),
        premium: q(1, 1005, 1005, 1005),
        retention: q(1, 1000, 1000, 1000),
        rpm: q(1, 1005, 1005, 1005),
        lossCount: 0,
        // Against 1,000,000, 1000 (the median of 0 and 2000) and 2000.
        limitMedianChangePercent: 0,
        premiumMedianChangePercent: 0.5,
        rpmMedianChangePercent: -49.75,
        withheld: null,
      },
      {
        // Programs 4 (on the end) and 8 (no limit: no RPM).
        periodStart: "2025-08-31",
        periodEnd: "2026-02-28",
        programCount: 2,
        companyCount: 2,
        // Retentions 1000.01 and 5000: 2000.0075, 3000.005, 4000.0025.
        limit: q(1, 1_000_000, 1_000_000, 1_000_000),
        premium: q(2, 500, 1000, 1500),
        retention: q(2, 2000.01, 3000.01, 4000),
        rpm: q(1, 2000, 2000, 2000),
        lossCount: 0,
        limitMedianChangePercent: null,
        premiumMedianChangePercent: null,
        rpmMedianChangePercent: null,
        withheld: null,
      },
    ],
  });
  const losses = marketTrend(dataset, { ...base, periodMonths: 12, periods: 3 }, AS_OF).periods.map((p) => p.lossCount);
  // Loss 1's accident (2025-03-05) and loss 6's (2025-01-01) are in (2024-08-31, 2025-08-31]; loss 2 has
  // only its filing date, 2024-12-31, there too; loss 3's accident (2023-12-31) is in the oldest.
  t.strictSame(losses, [0, 3, 1]);
});

t.test("loss experience (SEMANTICS.md section 15), worked by hand", async (t) => {
  const limits = ["500000", "499999.99", "1000000.01"];
  const experience = lossExperience(dataset, { ...base, limits }, AS_OF);
  t.strictSame(
    experience.years.map((y) => [y.year, y.programCount, y.lossCount, y.paidLossCount, y.frequencyPer100]),
    [
      [2021, 0, 0, 0, null],
      // Loss 7 has only a filing date, in 2022; no program that year: frequency null.
      [2022, 0, 1, 1, null],
      [2023, 0, 1, 1, null], // loss 3's accident, 2023-12-31 (filed 2024)
      [2024, 2, 1, 1, 50], // programs 2 and 3; loss 2 by its filing date, 2024-12-31
      [2025, 1, 2, 2, 200], // program 8 (programs 1, 4 and 5 are of 2026); losses 1 and 6
    ],
    "five years up to the year before the as-of date",
  );
  t.strictSame(experience.years[0]!.exceeding, [
    { limit: 500000, count: 0, percent: null },
    { limit: 499999.99, count: 0, percent: null },
    { limit: 1000000.01, count: 0, percent: null },
  ]);
  t.strictSame(experience.years[4], {
    year: 2025,
    programCount: 1,
    lossCount: 2,
    paidLossCount: 2,
    frequencyPer100: 200,
    // [500,000, 2,000,000]: h = 0.25, 0.5, 0.75
    severity: { firstQuartile: 875000, median: 1250000, thirdQuartile: 1625000, average: 1250000, max: 2000000 },
    exceeding: [
      { limit: 500000, count: 1, percent: 50 }, // exactly at 500,000 is not above it
      { limit: 499999.99, count: 2, percent: 100 },
      { limit: 1000000.01, count: 1, percent: 50 },
    ],
    withheld: null,
  });
  t.strictSame(experience.total, {
    fromYear: 2021,
    toYear: 2025,
    programCount: 3,
    lossCount: 5,
    paidLossCount: 5,
    frequencyPer100: 166.67, // 500 / 3
    // [1, 500,000, 500,000, 1,000,000, 2,000,000]; mean 4,000,001 / 5
    severity: { firstQuartile: 500000, median: 500000, thirdQuartile: 1000000, average: 800000.2, max: 2000000 },
    exceeding: [
      { limit: 500000, count: 2, percent: 40 },
      { limit: 499999.99, count: 4, percent: 80 },
      { limit: 1000000.01, count: 1, percent: 20 },
    ],
    withheld: null,
  });
  const one = lossExperience(dataset, { ...base, years: 1 }, AS_OF);
  t.strictSame([one.years.length, one.total.fromYear, one.total.toYear, one.total.exceeding], [1, 2025, 2025, []]);
  t.equal(lossExperience(dataset, { ...base, years: 20 }, AS_OF).years[0]!.year, 2006, "20 years: 2006 to 2025");

  // Programs without a source are a partner's, all one source: one company is enough here.
  const rule = {
    kind: "standard",
    minCompanies: 1,
    maxTopTwoShareBasisPoints: 10_000,
    maxSourceShareBasisPoints: 10_000,
  } as const;
  const guarded = lossExperience(dataset, { ...base, limits }, AS_OF, rule);
  t.strictSame(
    guarded.years.map((y) => [y.programCount, y.frequencyPer100, y.lossCount, y.withheld]),
    [
      [null, null, 0, { condition: "min_companies", threshold: 1 }],
      [null, null, 1, { condition: "min_companies", threshold: 1 }],
      [null, null, 1, { condition: "min_companies", threshold: 1 }],
      [2, 50, 1, null],
      [1, 200, 2, null],
    ],
    "empty years are withheld; their loss figures stay",
  );
  t.strictSame(
    [guarded.total.programCount, guarded.total.frequencyPer100, guarded.total.lossCount, guarded.total.withheld],
    [null, null, 5, { condition: "min_companies", threshold: 1 }],
    "the total's own set passes, but it repeats the oldest withheld year's",
  );
});
