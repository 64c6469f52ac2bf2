// The market trend panel (issue 30, item 4), in Debian's Chromium: for the peer group in
// the page's URL, every period's quartiles, medians and changes of limit, premium and RPM
// shown in the table view and drawn on the chart are the API's own answer (asked here,
// independently); the 12/6/3-month switch is in the URL and asks for as many periods as
// the console promises; the CSV is named and headed like the other figures' and holds the
// API's periods.
import t from "tap";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { Decimal } from "../../src/benchmark/decimal.js";
import { money } from "../../src/benchmark/text.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import {
  buildGroupFromCompany,
  busiestCompany,
  openSignedIn,
  startConsoleStack,
  waitForFigures,
  watchProblems,
} from "./helpers/console-stack.js";
import { SETTLE_MS } from "../../src/console/web/src/state/settle.js";
import { shownPeriods, type ApiPeriod } from "./helpers/trend-table.js";

const DATA = { companies: 300, programs: 6_000, losses: 600, seed: "console-trend" };
const MEASURES = ["limit", "premium", "rpm"] as const;

/** The page's peer group as the trend's query: the URL's own names, without the console's and the client's. */
function trendQuery(page: Page, periodMonths: number, periods: number): URLSearchParams {
  const query = new URLSearchParams(new URL(page.url()).search);
  for (const name of ["companyId", "limit", "premium", "retention", "periodMonths"]) query.delete(name);
  query.set("periodMonths", String(periodMonths));
  query.set("periods", String(periods));
  return query;
}

const shownMoney = (value: number | null) => (value === null ? "–" : money(new Decimal(value)));
const shownChange = (value: number | null) => (value === null ? "–" : `${value > 0 ? "+" : ""}${value}%`);

/** What the table view must say for an API period, cell by cell. */
/** CONSOLE_THIN_GROUP_PROGRAMS of the console stack (helpers/console-stack.ts). */
const THIN_PROGRAMS = 5;

function expectedCells(period: ApiPeriod): Record<string, string> {
  if (period.withheld) return {};
  const cells: Record<string, string> = { "trend-programs": period.programCount!.toLocaleString("en-US") };
  // Fewer programs than the stack's thin threshold (5): marked beside the period (issue 50).
  if (period.programCount! < THIN_PROGRAMS)
    cells["trend-thin"] = period.programCount === 0 ? "(no programs)" : "(few programs: read with care)";
  for (const m of MEASURES) {
    const q = period[m];
    cells[`trend-${m}-q1`] = shownMoney(q?.firstQuartile ?? null);
    cells[`trend-${m}-median`] = shownMoney(q?.median ?? null);
    cells[`trend-${m}-q3`] = shownMoney(q?.thirdQuartile ?? null);
    cells[`trend-${m}-change`] = shownChange(period[`${m}MedianChangePercent`]);
  }
  return cells;
}

/** The medians the chart was given, per measure, oldest first (the chart's element holds its ECharts instance). */
async function chartedMedians(page: Page): Promise<Record<string, (number | null)[]>> {
  return page.locator('[data-testid="trend-chart"] .chart-canvas').evaluate((element) => {
    // A thin period's median is an object with its own symbol (issue 50): its value is what is drawn.
    type Series = { name: string; data: (number | null | { value: number | null })[] }[];
    // No chart yet, or one with nothing drawn: no medians, which the comparison then shows.
    const chart = (element as unknown as { chart?: { getOption(): { series: Series } | undefined } }).chart;
    const medians: Record<string, (number | null)[]> = {};
    for (const s of chart?.getOption()?.series ?? [])
      if (s.name.endsWith(" median"))
        medians[s.name.replace(" median", "")] = s.data.map((d) => (d !== null && typeof d === "object" ? d.value : d));
    return medians;
  });
}

t.test(
  "the trend panel shows the API's trend for the URL's group; the period switch; table view and CSV",
  async (t) => {
    const paths = consolePaths();
    await ensureConsoleBuilt(paths);
    const { base, issuer, settings, knex } = await startConsoleStack(t, paths.outDir, { data: DATA });
    const token = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
    const trendOf = async (query: URLSearchParams) => {
      const response = await fetch(`${base}${settings.apiBase}/trend/getmarkettrend?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      t.equal(response.status, 200, "the API answers the trend");
      return (await response.json()) as { periodMonths: number; periods: ApiPeriod[] };
    };
    const browser = await startBrowser(t);
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    ).newPage();
    const problems = watchProblems(page);
    await openSignedIn(page, `${base}/console/`, t);
    const company = await busiestCompany(knex);
    // The first trend call is refused as a full admission gate refuses (503, Retry-After):
    // the console asks again once the second has passed, and the panel waits meanwhile.
    const isTrend = (url: URL) => url.pathname.endsWith("/trend/getmarkettrend");
    const trendCalls: number[] = [];
    await page.route(isTrend, async (route) => {
      trendCalls.push(Date.now());
      if (trendCalls.length > 1) return route.continue();
      await route.fulfill({
        status: 503,
        headers: { "content-type": "application/problem+json", "retry-after": "1" },
        body: JSON.stringify({ status: 503, code: "unavailable", detail: "the server is at capacity; retry shortly" }),
      });
    });
    await buildGroupFromCompany(page, company);
    await page.unroute(isTrend);
    t.equal(trendCalls.length, 2, "the refused trend call was made again, once");
    t.ok(trendCalls[1]! - trendCalls[0]! >= 1_000, "after the second Retry-After asked for");
    t.notOk(new URL(page.url()).searchParams.has("periodMonths"), "12 months is the default, left out of the link");
    t.ok(await page.getByTestId("trend-period-12").isChecked(), "12 months is chosen");

    for (const [months, count] of [
      [12, 5],
      [6, 8],
      [3, 12],
    ] as const) {
      if (months !== 12) {
        // Changes of the same setting within SETTLE_MS amend one history entry (use-peer-group.ts): these are two.
        await page.waitForTimeout(SETTLE_MS + 100);
        await page.getByTestId(`trend-period-${months}`).check();
        await page.waitForURL((url) => url.searchParams.get("periodMonths") === String(months));
        await waitForFigures(page);
      }
      const api = await trendOf(trendQuery(page, months, count));
      t.equal(api.periods.length, count, `${months} months: the API answers ${count} periods`);
      const answered = api.periods.filter((p) => !p.withheld);
      t.ok(
        answered.some((p) => (p.programCount ?? 0) > 0),
        `${months} months: the busiest company's group has programs in some period`,
      );
      const shown = await shownPeriods(page);
      // What the panel says instead, should a row be missing (a problem it shows, a withheld figure).
      const panel = { panel: await page.getByTestId("trend-figure").innerText() };
      const oldestFirst = [...api.periods].reverse();
      t.same(
        shown.map((row) => row.end),
        oldestFirst.map((p) => p.periodEnd),
        `${months} months: a row per period, oldest first, ending where the API's do`,
        panel,
      );
      t.same(
        shown.map((row) => row.cells),
        oldestFirst.map(expectedCells),
        `${months} months: each period's programs, quartiles, medians and changes are the API's`,
        panel,
      );
      t.same(
        await chartedMedians(page),
        {
          RPM: oldestFirst.map((p) => p.rpm?.median ?? null),
          Premium: oldestFirst.map((p) => p.premium?.median ?? null),
          Limit: oldestFirst.map((p) => p.limit?.median ?? null),
        },
        `${months} months: the chart draws the API's medians, a gap where there is none`,
      );
      t.equal(
        Number(await page.getByTestId("trend-programs").first().innerText()),
        answered.reduce((sum, p) => sum + (p.programCount ?? 0), 0),
        `${months} months: the panel's program count is the periods' sum`,
      );
      t.ok(
        answered.some((p) => p.rpmMedianChangePercent !== null),
        `${months} months: some change to show`,
      );
    }

    // The switch is the link's: back returns to 6-month periods.
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("periodMonths") === "6");
    await waitForFigures(page);
    t.equal((await shownPeriods(page)).length, 8, "back: 6-month periods again, 8 of them");
    t.ok(await page.getByTestId("trend-period-6").isChecked(), "and the switch says so");

    const download = page.waitForEvent("download");
    await page.getByTestId("trend-csv").click();
    const file = await download;
    t.match(
      file.suggestedFilename(),
      /^market-trend-6m_[a-z0-9-]+_[a-z0-9-]+_data-v1_\d{4}-\d{2}-\d{2}\.csv$/,
      "named after the figure and its periods, client, coverage, data version and date",
    );
    const text = await readFile((await file.path())!, "utf8");
    t.ok(text.startsWith("\uFEFF"), "a UTF-8 byte order mark first, for Excel on Windows");
    const lines = text.slice(1).trim().split(/\r?\n/);
    const blank = lines.indexOf("");
    t.same(
      lines.slice(0, blank).map((line) => line.split(",")[0]),
      ["Figure", "Client", "Coverage", "Peer group", "Data version", "Date"],
      "the header lines every figure's CSV has",
    );
    t.ok(lines[1]!.includes(company.name), "the client's name");
    t.match(
      lines[3]!,
      /; 8 periods of 6 months, after \d{4}-\d{2}-\d{2} up to \d{4}-\d{2}-\d{2}"?$/,
      "its periods in place of the window it does not use (issue 50)",
    );
    const header = lines[blank + 1]!.split(",");
    const api = await trendOf(trendQuery(page, 6, 8));
    const rows = lines
      .slice(blank + 2)
      .map((line) => Object.fromEntries(line.split(",").map((cell, i) => [header[i]!, cell])));
    t.same(
      rows.map((r) => [
        r["Period end"],
        r["Limit median"],
        r["Premium median"],
        r["RPM median"],
        r["RPM median change %"],
        r.Programs,
      ]),
      [...api.periods]
        .reverse()
        .map((p) => [
          p.periodEnd,
          String(p.limit?.median ?? ""),
          String(p.premium?.median ?? ""),
          String(p.rpm?.median ?? ""),
          String(p.rpmMedianChangePercent ?? ""),
          String(p.programCount ?? ""),
        ]),
      "a row per period, oldest first as the screen shows them, with its medians, change and programs",
    );

    const refused = (problem: string) => problem.includes("status of 503");
    t.equal(problems.filter(refused).length, 1, "the browser logs the one refused call");
    t.same(
      problems.filter((p) => !refused(p)),
      [],
      "no page errors, nothing the policy blocks",
    );
  },
);
