// The printed report (issue 27, item 2): printed to PDF by Chromium as a broker's print
// dialog would, on A4 and on Letter. Every chart is drawn at its paper size: each of its
// labels lies inside its own box (read from the chart, and seen on the page rendered to
// pixels by poppler's pdftoppm: nothing touches a chart's frame, where a cropped label
// would be cut), and the text of the PDF (pdftotext) carries each band label and each
// figure's numbers (the trend's medians per period too), the footer's group and data
// version. One to three pages: the market trend takes the page's width.
import t from "tap";
import type { Page } from "playwright-core";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { Decimal } from "../../src/benchmark/decimal.js";
import { money } from "../../src/benchmark/text.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { drawnCharts, outside, overlapping } from "./helpers/chart-labels.js";
import { buildGroupFromCompany, busiestCompany, openSignedIn, startConsoleStack } from "./helpers/console-stack.js";
import { findFrames, inkIn, pdfText, rasterizePdf } from "./helpers/pdf-pages.js";
import type { ApiPeriod } from "./helpers/trend-table.js";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const DATA = { companies: 300, programs: 6_000, losses: 600, seed: "console-print" };
/** The charts' frame colour in the print stylesheet (src/console/web/src/styles/print.css). */
const FRAME: [number, number, number] = [0xb4, 0xb4, 0xb4];
/** Pixels inside a frame that must stay blank: a label cut at the chart's edge would reach them. */
const STRIP = 3;

/** The group in the page's URL as the API takes it. */
const apiQuery = (page: Page) => {
  const q = new URLSearchParams(new URL(page.url()).search);
  q.delete("companyId");
  return q;
};

t.test("the printed report: charts at paper size, every label inside its chart, the numbers in the text", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const { base, issuer, settings, knex } = await startConsoleStack(t, paths.outDir, { data: DATA });
  const token = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
  const api = async (path: string, query: URLSearchParams) =>
    (
      await fetch(`${base}${settings.apiBase}${path}?${query}`, { headers: { authorization: `Bearer ${token}` } })
    ).json() as Promise<Record<string, unknown>>;
  const browser = await startBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openSignedIn(page, `${base}/console/`, t);
  const company = await busiestCompany(knex);
  await buildGroupFromCompany(page, company);
  // Issue 50: the title (and so a saved PDF's name) is the client's, the coverage's and the date's.
  t.match(
    await page.title(),
    new RegExp(`^Peer benchmark – ${escapeRegExp(company.name)} – .+ – \\d{4}-\\d{2}-\\d{2}$`),
    "the page's title names the report",
  );
  // The entry animations over: a chart printed mid-animation would be half drawn.
  await page.waitForTimeout(800);

  const query = apiQuery(page);
  const assessment = await api("/assessment/getassessmentdata", query);
  const rpm = await api("/assessment/getrpmdistributiondata", query);
  const q = Object.fromEntries(query);
  const trend = (await api(
    "/trend/getmarkettrend",
    new URLSearchParams({
      ...Object.fromEntries([...query].filter(([k]) => !["limit", "premium", "retention"].includes(k))),
      periodMonths: "12",
      periods: "5",
    }),
  )) as unknown as { periods: ApiPeriod[] };
  const adequacy = await api(
    "/lossdetails/limitadequacy",
    new URLSearchParams({
      Naics: q.naics!,
      CoverageId: q.coverageId!,
      LobId: q.lineOfBusinessId ?? "0",
      ExposureType: q.exposureType ?? "Revenues",
      ExposureRangeLow: q.exposureRangeLow!,
      ExposureRangeHigh: q.exposureRangeHigh!,
      OrganizationType: q.organizationType ?? "All",
      ClientLimit: q.limit!,
    }),
  );

  // As printing starts, each chart is drawn at its paper size, and all it draws is inside it.
  await page.evaluate("dispatchEvent(new Event('beforeprint'))");
  const charts = await drawnCharts(page);
  t.equal(charts.length, 6, "six charts drawn (the trend's too)");
  for (const chart of charts) {
    t.ok(chart.texts.length > 3, `${chart.testId}: labels drawn (${chart.texts.length})`);
    t.same(outside(chart), [], `${chart.testId}: every label inside the ${chart.width}x${chart.height} chart`);
  }
  const adequacyChart = charts.find((c) => c.testId === "adequacy-chart")!;
  t.same(
    overlapping(adequacyChart.texts),
    [],
    "limit adequacy: no two labels overlap (ticks, legend, axis name, the limits' labels)",
  );
  await page.evaluate("dispatchEvent(new Event('afterprint'))");

  const dir = await createTempDir(t, "cpb-print-");
  for (const format of ["A4", "Letter"] as const) {
    const pdf = await page.pdf({ format });
    if (process.env.KEEP_PRINT_PDF)
      await import("node:fs/promises").then((fs) => fs.writeFile(`${process.env.KEEP_PRINT_PDF}/${format}.pdf`, pdf));
    const pages = await rasterizePdf(pdf, dir, format);
    t.ok(pages.length >= 1 && pages.length <= 3, `${format}: one to three pages (${pages.length})`);
    const frames = pages.flatMap((p, n) => findFrames(p, FRAME, 300).map((box) => ({ page: p, n, box })));
    t.equal(frames.length, 6, `${format}: six chart frames on paper`);
    for (const { page: p, n, box } of frames) {
      const inner = { left: box.left + 3, top: box.top + 3, right: box.right - 3, bottom: box.bottom - 3 };
      const edges = [
        { ...inner, bottom: inner.top + STRIP },
        { ...inner, top: inner.bottom - STRIP },
        { ...inner, right: inner.left + STRIP },
        { ...inner, left: inner.right - STRIP },
      ];
      const where = `${format} page ${n + 1}, frame at ${box.left},${box.top} (${box.right - box.left}x${box.bottom - box.top} px)`;
      t.ok(inkIn(p, inner) > 500, `${where}: a chart is drawn inside`);
      t.same(
        edges.map((edge) => inkIn(p, edge)),
        [0, 0, 0, 0],
        `${where}: nothing reaches the frame, so nothing is cut at the chart's edge`,
      );
    }

    const raw = await pdfText(pdf, dir, format);
    const text = raw.replace(/\s+/g, " ");
    for (const kind of ["limit", "premium", "retention"]) {
      const bands = (
        assessment[`${kind}Distribution`] as { bands: { bandDescription: string; programCount: number }[] }
      ).bands;
      const missing = bands.filter(
        (b) => !text.includes(`${b.bandDescription} ${b.programCount.toLocaleString("en-US")}`),
      );
      t.same(
        missing.map((b) => b.bandDescription),
        [],
        `${format}: every ${kind} band label with its count`,
      );
    }
    for (const key of ["firstQuartile", "median", "fourthQuartile", "maxRpm"]) {
      t.ok(
        text.includes(money(new Decimal(rpm[key] as number))),
        `${format}: the RPM ${key}, ${money(new Decimal(rpm[key] as number))}`,
      );
    }
    t.ok(text.includes(money(new Decimal(adequacy.medianLimit as number))), `${format}: the median peer limit`);
    const cases = adequacy.listOfCases as { lossAmount: number }[];
    t.ok(text.includes(money(new Decimal(cases.at(-1)!.lossAmount))), `${format}: the largest loss case`);
    // The trend's numbers: each period's end with its RPM, premium and limit medians (the table's order), on one line (-layout keeps a row together).
    const lines = raw.split("\n");
    for (const p of trend.periods.filter((period) => !period.withheld)) {
      const medians = [p.rpm, p.premium, p.limit].map((m) => (m?.median == null ? "–" : money(new Decimal(m.median))));
      const inRow = (line: string) => {
        const at = medians.map((m) => line.indexOf(m));
        return line.trimStart().startsWith(p.periodEnd) && at.every((i, n) => i > 0 && (n === 0 || i > at[n - 1]!));
      };
      t.ok(
        lines.some(inRow),
        `${format}: the trend's row for the period ending ${p.periodEnd} holds its medians ${medians.join(", ")}`,
      );
    }
    // pdftotext may break the date at its hyphen where the line wraps.
    t.match(
      text,
      /Peer group: NAICS .* Data version 1\. Printed \d{4}- ?\d{2}- ?\d{2}/,
      `${format}: the footer with the group, the data version and the date`,
    );
    // Issue 50: whose report, on every page; the window as dates; no signed-in user.
    const textPages = raw.split("\f").filter((page) => page.trim() !== "");
    t.ok(
      textPages.every((page) =>
        page.replace(/\s+/g, " ").includes(`Peer benchmark: ${company.name} (company ${company.id}`),
      ),
      `${format}: the client, with its company id, atop each of the ${textPages.length} pages`,
    );
    t.notMatch(text, /months ago|to today/, `${format}: the window as dates`);
    t.match(text, /programs from \d{4}-\d{2}-\d{2} to \d{4}- ?\d{2}- ?\d{2}/, `${format}: its dates`);
    t.notMatch(text, /Signed in as|Demo Broker/, `${format}: no signed-in user on paper`);
    t.notMatch(
      text,
      /(January|February|March|April|May|June|July|August|September|October|November|December) \d/,
      `${format}: one date format`,
    );
  }
});
