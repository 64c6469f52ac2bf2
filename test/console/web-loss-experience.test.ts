// The loss experience panel's reading (src/console/web/src/figures/loss-experience-*.ts,
// results/loss-experience-ask.ts): limits headed exactly as brokers say them, the client's
// first; $0 losses apart from the paid ones; withheld programs said to be withheld, never
// zero, in the sentence and the CSV; the link keeps the years and the other limits.
import t from "tap";
import type { LossExperience, LossExperienceFigures } from "../../src/console/web/src/api/types.js";
import { Decimal, roundHalfAwayFromZero } from "../../src/benchmark/decimal.js";
import { money } from "../../src/benchmark/text.js";
import { dollarsOrDash, shortMoney } from "../../src/console/web/src/figures/format.js";
import { lossExperienceHeadline } from "../../src/console/web/src/figures/loss-experience-headline.js";
import {
  frequencyText,
  isThin,
  limitColumns,
  lossExperienceCsvRows,
  programsText,
  yearsSpan,
  zeroLosses,
} from "../../src/console/web/src/figures/loss-experience-rows.js";
import { totalWithheldText, totalWithholding } from "../../src/console/web/src/figures/loss-experience-withheld.js";
import { lossExperienceAsk } from "../../src/console/web/src/results/loss-experience-ask.js";
import {
  DEFAULT_LOSS_YEARS,
  parsePeerGroup,
  serializePeerGroup,
  withoutPanelSettings,
} from "../../src/console/web/src/state/peer-group.js";

const GROUP = parsePeerGroup("?naics=52&coverageId=1&exposureRangeLow=0&exposureRangeHigh=10000000");

const figures = (patch: Partial<LossExperienceFigures> = {}): LossExperienceFigures => ({
  programCount: 40,
  lossCount: 10,
  paidLossCount: 8,
  frequencyPer100: 25,
  severity: {
    firstQuartile: 100_000,
    median: 250_000.5,
    thirdQuartile: 1_000_000,
    average: 2_333_333.33,
    max: 12_000_000,
  },
  exceeding: [
    { limit: 5_000_000, count: 2, percent: 25 },
    { limit: 10_000_000, count: 1, percent: 12.5 },
  ],
  withheld: null,
  ...patch,
});

const EXPERIENCE: LossExperience = {
  years: [
    {
      year: 2024,
      ...figures({ programCount: null, frequencyPer100: null, withheld: { condition: "min_companies", threshold: 5 } }),
    },
    {
      year: 2025,
      ...figures({
        lossCount: 2,
        paidLossCount: 0,
        frequencyPer100: 5,
        severity: null,
        exceeding: [
          { limit: 5_000_000, count: 0, percent: null },
          { limit: 10_000_000, count: 0, percent: null },
        ],
      }),
    },
  ],
  total: {
    fromYear: 2024,
    toYear: 2025,
    ...figures({ programCount: null, frequencyPer100: null, withheld: { condition: "min_companies", threshold: 5 } }),
  },
};

t.test("limits are headed exactly as brokers say them", async (t) => {
  t.equal(shortMoney(10_000_000), "$10M");
  t.equal(shortMoney(2_500_000), "$2.5M");
  t.equal(shortMoney(1_250_000), "$1.25M");
  t.equal(shortMoney(250_000), "$250K");
  t.equal(shortMoney(1_500_000_000), "$1.5B");
  t.equal(shortMoney(2_000_000_000_000), "$2,000B", "past billions, still exact");
  t.equal(shortMoney(12_345_678), "$12,345,678", "no rounding to $12.3M: the column counts above this very amount");
  t.equal(shortMoney(999_999.99), "$999,999.99");
  t.equal(shortMoney(1_000_000.01), "$1,000,000.01");
  t.equal(shortMoney(999), "$999");
  t.equal(shortMoney(1_005), "$1,005", "1.005K is no hundredth of a K");
});

t.test("loss amounts to the dollar, rounded as the server rounds", async (t) => {
  for (const value of [0, 0.5, 0.49, 1.005, 999.5, 2_333_333.33, 6_040_647.5, 87_233_000, 12_345_678_901.99])
    t.equal(dollarsOrDash(value), money(roundHalfAwayFromZero(new Decimal(value), 0)), String(value));
  t.equal(dollarsOrDash(6_040_647.04), "$6,040,647");
  t.equal(dollarsOrDash(null), "–");
  t.equal(dollarsOrDash(undefined), "–");
});

t.test("the client's limit is the first column when the answer was asked with one", async (t) => {
  const withClient = limitColumns(EXPERIENCE, { limits: ["5000000", "10000000"], clientLimit: true });
  t.same(withClient, [
    { amount: 5_000_000, client: true },
    { amount: 10_000_000, client: false },
  ]);
  t.same(limitColumns(EXPERIENCE, { limits: ["5000000", "10000000"], clientLimit: false })[0], {
    amount: 5_000_000,
    client: false,
  });
});

t.test("cells: $0 losses apart, a dash without programs, few programs marked", async (t) => {
  t.equal(zeroLosses(figures()), 2);
  t.equal(frequencyText(figures({ frequencyPer100: 1234.5 })), "1,234.5");
  t.equal(frequencyText(figures({ frequencyPer100: null })), "–");
  t.equal(programsText(figures({ programCount: 1234 })), "1,234");
  t.equal(programsText(figures({ programCount: 0 })), "0");
  t.equal(programsText(figures({ programCount: null, withheld: null })), "–", "a null count is unknown, never 0");
  t.equal(yearsSpan({ fromYear: 2021, toYear: 2025 }), "2021–2025");
  t.ok(isThin(figures({ programCount: 4 }), 5), "4 programs, fewer than 5: marked");
  t.notOk(isThin(figures({ programCount: 5 }), 5));
  t.notOk(isThin(figures({ programCount: 0, frequencyPer100: null }), 5), "no programs: no rate to mark");
  t.notOk(isThin(EXPERIENCE.years[0]!, 5), "withheld: said so, not marked thin");
  t.equal(yearsSpan({ fromYear: 2025, toYear: 2025 }), "2025");
});

t.test("the headline: how often, how large (paid only), how many above each limit", async (t) => {
  const columns = limitColumns(EXPERIENCE, { limits: ["5000000", "10000000"], clientLimit: true });
  const total = { ...EXPERIENCE.total, ...figures() };
  t.equal(
    lossExperienceHeadline(total, columns, null),
    "2024–2025: 25 losses per 100 programs (10 losses on 40 programs). 8 paid (2 more closed at $0): median $250,001, average $2,333,333, largest $12,000,000. Above the client's limit of $5,000,000: 2 of the 8 paid losses (25%); above $10,000,000: 1 (12.5%).",
  );
  t.equal(
    lossExperienceHeadline(EXPERIENCE.total, columns, "fewer than 5 companies").split(". ")[0],
    "2024–2025: 10 losses; the programs are withheld (fewer than 5 companies), so no rate per 100 programs",
    "withheld programs are said to be withheld, not read as none",
  );
  t.match(
    lossExperienceHeadline(total, columns, null),
    /median \$250,001, average \$2,333,333,/,
    "the amounts to the dollar, as the table beside it shows them",
  );
  t.equal(
    lossExperienceHeadline({ ...total, programCount: 0, frequencyPer100: null, exceeding: [] }, [], null),
    "2024–2025: 10 losses, and no program effective in these years to rate them by. 8 paid (2 more closed at $0): median $250,001, average $2,333,333, largest $12,000,000.",
  );
  t.equal(
    lossExperienceHeadline({ ...total, paidLossCount: 0, severity: null }, columns, null),
    "2024–2025: 25 losses per 100 programs (10 losses on 40 programs). None was paid: all 10 were closed at $0.",
    "no severity and no share above a limit without a paid loss",
  );
  t.equal(
    lossExperienceHeadline(
      { ...total, fromYear: 2025, lossCount: 0, paidLossCount: 0, frequencyPer100: 0 },
      columns,
      null,
    ),
    "2025: 0 losses per 100 programs (0 losses on 40 programs).",
  );
});

t.test("the total's withheld programs: why, not the years' condition read as the group's", async (t) => {
  const few = { condition: "min_companies", threshold: 5 };
  const share = { condition: "max_top2_share", threshold: 85 };
  const withheldYear = (year: number, withheld = few) => ({
    year,
    ...figures({ programCount: null, frequencyPer100: null, withheld }),
  });
  const passingYear = (year: number) => ({ year, ...figures() });
  const experience = (years: LossExperience["years"], withheld: typeof few | null): LossExperience => ({
    years,
    total: {
      fromYear: years[0]!.year,
      toYear: years.at(-1)!.year,
      ...figures(withheld ? { programCount: null, frequencyPer100: null, withheld } : {}),
    },
  });
  const reveal = "the total would reveal the withheld years' counts";

  t.equal(totalWithholding(experience([passingYear(2024), passingYear(2025)], null)), null, "not withheld");
  // A year passing min_companies alone: all the years together have as many companies, so only the year withholds the total.
  const years = totalWithholding(experience([withheldYear(2024), passingYear(2025)], few))!;
  t.same(years, { kind: "years", reason: "fewer than 5 companies", withheldYears: 1 });
  t.equal(totalWithheldText(years), reveal, "said why, not 'fewer than 5 companies'");
  const own = totalWithholding(experience([passingYear(2024), passingYear(2025)], share))!;
  t.equal(own.kind, "own", "no year withheld: the years together break the rule");
  t.equal(totalWithheldText(own), "two companies hold over 85%", "its condition, in words");
  t.equal(
    totalWithholding(experience([withheldYear(2024), withheldYear(2025, share)], share))!.kind,
    "own",
    "another condition than the oldest withheld year's: its own",
  );
  const either = totalWithholding(experience([withheldYear(2024), withheldYear(2025)], few))!;
  t.equal(either.kind, "either", "every year withheld: all of them together may have fewer than 5 companies too");
  t.equal(totalWithheldText(either), `${reveal}, and may itself break the rule: fewer than 5 companies`);
  t.equal(
    totalWithholding(experience([withheldYear(2024, share), passingYear(2025)], share))!.kind,
    "either",
    "a share condition: a year passing tells nothing of the years together",
  );
  t.equal(
    lossExperienceHeadline(EXPERIENCE.total, [], totalWithheldText(years)).split(". ")[0],
    `2024–2025: 10 losses; the programs are withheld (${reveal}), so no rate per 100 programs`,
  );
});

t.test("the CSV: the limits and whose, a row a year and the total, withheld left empty with why", async (t) => {
  const rows = lossExperienceCsvRows(EXPERIENCE, { limits: ["5000000", "10000000"], clientLimit: true });
  t.same(rows.slice(0, 3), [["Client limit", 5_000_000], ["Other limit", 10_000_000], []]);
  t.same(rows[3], [
    "Year",
    "Programs",
    "Losses per 100 programs",
    "Losses ($0 included)",
    "Losses closed at $0",
    "Paid losses",
    "Paid loss first quartile",
    "Paid loss median",
    "Paid loss third quartile",
    "Paid loss average",
    "Largest paid loss",
    "Paid losses above $5,000,000 (the client's limit)",
    "Paid losses above $5,000,000 (the client's limit), % of paid losses",
    "Paid losses above $10,000,000",
    "Paid losses above $10,000,000, % of paid losses",
    "Withheld",
  ]);
  t.same(rows[4], [
    2024,
    "",
    "",
    10,
    2,
    8,
    100_000,
    250_000.5,
    1_000_000,
    2_333_333.33,
    12_000_000,
    2,
    25,
    1,
    12.5,
    "fewer than 5 companies",
  ]);
  t.same(rows[5], [2025, 40, 5, 2, 2, 0, "", "", "", "", "", 0, "", 0, "", ""], "no paid loss: empty, not 0");
  t.equal(rows[6]![0], "Total 2024-2025");
  t.equal(rows.length, 7);
  const none = lossExperienceCsvRows(
    { years: [], total: { ...EXPERIENCE.total, exceeding: [] } },
    { limits: [], clientLimit: false },
  );
  t.equal(none[0]![0], "Year", "no limit: no limit lines, no blank line");
});

t.test("the request: the client's limit first, then the other limits that are amounts", async (t) => {
  t.same(lossExperienceAsk({ ...GROUP, limit: "5000000", otherLimits: ["10000000", "abc"] }), {
    limits: ["5000000", "10000000"],
    clientLimit: true,
  });
  t.same(lossExperienceAsk({ ...GROUP, otherLimits: ["0", "15000000"] }), { limits: ["15000000"], clientLimit: false });
  t.same(lossExperienceAsk(GROUP), { limits: [], clientLimit: false });
});

t.test("the link keeps the years and the other limits; other requests do not key on them", async (t) => {
  const group = parsePeerGroup(`${serializePeerGroup(GROUP)}&limit=5M&years=10&otherLimits=10M,15000000`);
  t.equal(group.years, 10);
  t.same(group.otherLimits, ["10000000", "15000000"], "read as typed amounts are");
  t.match(serializePeerGroup(group), /&years=10&otherLimits=10000000%2C15000000$/);
  t.same(parsePeerGroup(serializePeerGroup(group)), group, "round trip");
  t.equal(parsePeerGroup("?years=7").years, DEFAULT_LOSS_YEARS, "a span the panel does not offer");
  t.notMatch(serializePeerGroup({ ...group, years: DEFAULT_LOSS_YEARS, otherLimits: [] }), /years|otherLimits/);
  t.same(parsePeerGroup("?otherLimits=abc,1,2").otherLimits, ["abc", "1"], "two at most; text that is no amount kept");
  t.equal(serializePeerGroup(withoutPanelSettings(group)), serializePeerGroup({ ...GROUP, limit: "5000000" }));
});
