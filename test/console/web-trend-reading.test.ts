// The trend as a broker reads it (issue 50): a change is headlined only between two periods
// each on enough programs; a withheld newest period is named, not skipped in silence; the
// axes end beyond the data, so no median sits on the axis line; the window is dates.
import t from "tap";
import type { TrendPeriod } from "../../src/console/web/src/api/types.js";
import { trendHeadline, periodsText } from "../../src/console/web/src/figures/trend-headline.js";
import { periodLabel, valueAxisEnds } from "../../src/console/web/src/figures/trend-chart-option.js";
import { isThin, shortPeriodEnd, trendCsvRows } from "../../src/console/web/src/figures/trend-rows.js";
import { monthsBefore } from "../../src/console/web/src/export/report-context.js";

const quartiles = (median: number) => ({ count: 9, firstQuartile: median / 2, median, thirdQuartile: median * 2 });

function period(end: string, programs: number | null, change: number | null = 10): TrendPeriod {
  return {
    periodStart: `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`,
    periodEnd: end,
    programCount: programs,
    companyCount: programs,
    lossCount: 1,
    withheld: programs === null ? { condition: "min_companies", threshold: 5 } : null,
    limit: programs === null ? null : quartiles(5_000_000),
    premium: programs === null ? null : quartiles(334_144),
    retention: programs === null ? null : quartiles(25_000),
    rpm: programs === null ? null : quartiles(66_828.8),
    limitMedianChangePercent: change,
    premiumMedianChangePercent: change === null ? null : 93.97,
    rpmMedianChangePercent: change,
  } as TrendPeriod;
}

t.test("a change is headlined only between periods on enough programs", async (t) => {
  // Newest first, as the API answers.
  t.equal(
    trendHeadline([period("2026-11-01", 40), period("2025-11-01", 30)], 5),
    "Newest period, ending 2026-11-01: median limit $5,000,000 (+10%), median premium $334,144 (+93.97%), median RPM $66,828.80 (+10%) against the period before.",
  );
  const thinNewest = trendHeadline([period("2026-11-01", 3), period("2025-11-01", 30)], 5)!;
  t.match(thinNewest, /rests on 3 programs, fewer than 5/);
  t.notMatch(thinNewest, /%/, "no change from a period on 3 programs");
  const thinBefore = trendHeadline([period("2026-11-01", 40), period("2025-11-01", 2)], 5)!;
  t.match(
    thinBefore,
    /median RPM \$66,828\.80; no change is given, as the period before rests on 2 programs, fewer than 5\.$/,
  );
  t.notMatch(thinBefore, /%/, "no change against a period on 2 programs");
  t.equal(isThin(period("2026-11-01", 4), 5), true);
  t.equal(isThin(period("2026-11-01", 5), 5), false, "the threshold itself is enough");
  t.equal(isThin(period("2026-11-01", null), 5), false, "a withheld period is withheld, not thin");
});

t.test("a withheld newest period is said, not skipped", async (t) => {
  const text = trendHeadline([period("2026-11-01", null), period("2025-11-01", 30), period("2024-11-01", 30)], 5)!;
  t.match(
    text,
    /^The period ending 2026-11-01 is withheld \(fewer than 5 companies\)\. Newest period with figures, ending 2025-11-01:/,
  );
  t.equal(trendHeadline([period("2026-11-01", null)], 5), undefined, "nothing to headline");
  t.match(
    trendHeadline([period("2026-11-01", 30), period("2025-11-01", null)], 5)!,
    /no change is given, as the period before is withheld\.$/,
  );
});

t.test("the trend CSV: oldest first, thin periods marked, its periods in place of the window", async (t) => {
  const rows = trendCsvRows([period("2026-11-01", 3), period("2025-11-01", 30), period("2024-11-01", 0)], 5);
  t.same(
    rows.slice(1).map((r) => [r[1], r.at(-1)]),
    [
      ["2024-11-01", "yes: no programs"],
      ["2025-11-01", ""],
      ["2026-11-01", "yes: read with care"],
    ],
    "a period on no programs says so, not 'few'",
  );
  t.equal(rows[0]!.at(-1), "Fewer than 5 programs");
  t.equal(periodLabel(period("2026-11-30", 3), 5), "Nov 2026\n(3 prog.)", "the chart's label: how few");
  t.equal(periodLabel(period("2026-11-30", 0), 5), "Nov 2026\n(no programs)", "or none");
  t.equal(periodLabel(period("2026-11-30", 30), 5), "Nov 2026", "a period on enough programs: its month alone");
  t.equal(
    periodsText([period("2026-11-01", 3), period("2025-11-01", 30)], 12),
    "2 periods of 12 months, after 2024-11-01 up to 2026-11-01",
  );
  t.equal(shortPeriodEnd("2026-08-31"), "Aug 2026");
});

t.test("value axes end a nice step beyond the data, never on a median", async (t) => {
  // Every limit $5M: the axis started at $5M and the median sat on it.
  const flat = valueAxisEnds({ min: 5_000_000, max: 5_000_000 });
  t.ok(flat.min < 5_000_000 && flat.max > 5_000_000, `$5M within ${flat.min}..${flat.max}`);
  const spread = valueAxisEnds({ min: 2_500_000, max: 10_000_000 });
  t.ok(spread.min < 2_500_000 && spread.min >= 0 && spread.max > 10_000_000, `${spread.min}..${spread.max}`);
  t.same(valueAxisEnds({ min: 0, max: 0 }), { min: 0, max: 1 }, "nothing to draw: still an axis");
  t.equal(valueAxisEnds({ min: 100, max: 900 }).min, 0, "never below 0");
});

t.test("the window as dates, months back from the day", async (t) => {
  t.equal(monthsBefore("2026-12-02", 24), "2024-12-02");
  t.equal(monthsBefore("2026-12-02", 0), "2026-12-02");
  t.equal(monthsBefore("2026-05-31", 3), "2026-02-28", "the month's last day when it has no 31st");
  t.equal(monthsBefore("2026-01-15", 13), "2024-12-15");
});
