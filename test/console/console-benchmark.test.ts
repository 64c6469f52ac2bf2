// The console end to end (issue 16), in Debian's Chromium: the demo user signs in through
// the dev provider, builds a peer group from a company search, and every figure shows
// the counts the API answers for that group (asked here, independently, with the URL's
// peer group); a chart's CSV holds the API's bands; the page fits a phone's 375 px and a
// desktop, screenshots of both taken; a thin group is flagged; and under the standard
// disclosure rule a refused group gets guidance to widen it, not an error page.
import t from "tap";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { buildGroupFromCompany, busiestCompany, openSignedIn, startConsoleStack, watchProblems } from "./helpers/console-stack.js";

const DATA = { companies: 300, programs: 6_000, losses: 600, seed: "console-e2e" };
const FIGURES = ["limit", "premium", "retention", "rpm", "adequacy"] as const;

/** The peer group of the page's URL as an API query: the URL is the API's own names, plus the console's companyId. */
function apiQuery(page: Page): URLSearchParams {
  const query = new URLSearchParams(new URL(page.url()).search);
  query.delete("companyId");
  return query;
}

const textOf = (page: Page, testId: string) => page.getByTestId(testId).innerText();

t.test("sign in, build a peer group from a company search: every figure shows the API's counts; CSV; desktop and phone", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const { base, issuer, settings, knex } = await startConsoleStack(t, paths.outDir, { data: DATA });
  const token = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
  const api = async (path: string, query: URLSearchParams) => {
    const response = await fetch(`${base}${settings.apiBase}${path}?${query}`, { headers: { authorization: `Bearer ${token}` } });
    t.equal(response.status, 200, `the API answers ${path}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const company = await busiestCompany(knex);

  const browser = await startBrowser(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await openSignedIn(page, `${base}/console/`, t);

  await buildGroupFromCompany(page, company);
  t.equal(await page.getByTestId("company-search").getAttribute("role"), "combobox", "the company search is an ARIA combobox");
  t.pass(`chose ${company.name} and typed the client's program: the peer group is in the URL`);

  const query = apiQuery(page);
  const assessment = await api("/assessment/getassessmentdata", query);
  t.ok((assessment.totalProgramCount as number) > 0, `a peer group of ${String(assessment.totalProgramCount)} programs`);
  for (const figure of FIGURES) {
    t.equal(Number(await textOf(page, `${figure}-programs`)), assessment.totalProgramCount, `${figure}: the API's program count`);
    t.equal(Number(await textOf(page, `${figure}-losses`)), assessment.totalLossCount, `${figure}: the API's loss count`);
  }
  const rpm = await api("/assessment/getrpmdistributiondata", query);
  t.match(await textOf(page, "rpm-percentile"), String(rpm.nthPercent), "the client's RPM percentile, as the API has it");
  t.equal(await page.getByTestId("data-version").innerText(), "1", "the data version the report quotes");
  t.equal(await page.getByTestId("thin-group-warning").count(), 0, "no thin-group warning");

  // The limit distribution's CSV: the API's bands and counts.
  const download = page.waitForEvent("download");
  await page.getByTestId("limit-csv").click();
  const file = await download;
  t.equal(file.suggestedFilename(), "limit-distribution.csv");
  const csv = (await readFile((await file.path())!, "utf8")).trim().split(/\r?\n/);
  const bands = (assessment.limitDistribution as { bands: { bandSeq: number; programCount: number }[] }).bands;
  t.equal(csv[0], "Band,Band label,Programs,Client band", "a header row");
  t.same(
    csv.slice(1).map((line) => line.split(",")).map((cells) => [Number(cells[0]), Number(cells.at(-2))]),
    bands.map((band) => [band.bandSeq, band.programCount]),
    "one row per band, the API's counts",
  );

  const shots = await createTempDir(t, "cpb-console-shots-");
  const desktop = await page.screenshot({ path: `${shots}/desktop.png`, fullPage: true });
  t.ok(desktop.length > 20_000, `a desktop screenshot (${desktop.length} bytes)`);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByTestId("limit-chart").waitFor();
  const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
  t.equal(overflow, 0, "no horizontal scroll at 375 px");
  const phone = await page.screenshot({ path: `${shots}/phone.png`, fullPage: true });
  t.ok(phone.length > 20_000, `a phone screenshot (${phone.length} bytes)`);

  // A link is the peer group: a colleague's browser opening the URL shows the same counts.
  const shared = await (await browser.newContext()).newPage();
  await openSignedIn(shared, page.url(), t);
  await shared.getByTestId("limit-programs").filter({ hasText: /^\d+$/ }).waitFor({ timeout: 30_000 });
  t.equal(Number(await textOf(shared, "limit-programs")), assessment.totalProgramCount, "the link opens the same peer group");

  t.same(problems, [], "no page errors, nothing the policy blocks");
});

t.test("a thin group is flagged; under the standard rule a refused group gets guidance, not an error", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const browser = await startBrowser(t);
  for (const [rule, expectation] of [
    [{ kind: "none" } as const, "thin-group-warning"],
    [STANDARD_RULE, "refusal-guidance"],
  ] as const) {
    const { base, knex } = await startConsoleStack(t, paths.outDir, { data: DATA, disclosure: rule });
    // One company's subsector and its own revenues: a group of that company's few programs.
    const [row] = (await knex("companies as c")
      .join("programs as p", "p.company_id", "c.company_id")
      .whereNotNull("c.naics3")
      .whereNotNull("c.revenues")
      .groupBy("c.company_id", "c.naics3", "c.revenues", "p.coverage_id")
      .havingRaw("count(*) between 1 and 4")
      .orderBy("c.company_id")
      .limit(1)
      .select("c.naics3", "c.revenues", "p.coverage_id")) as { naics3: string; revenues: string; coverage_id: number }[];
    const group = new URLSearchParams({ naics: row!.naics3, coverageId: String(row!.coverage_id), exposureType: "Revenues", exposureRangeLow: row!.revenues, exposureRangeHigh: row!.revenues });
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await openSignedIn(page, `${base}/console/?${group}`, t);
    const shown = page.getByTestId(expectation);
    await shown.waitFor({ timeout: 30_000 });
    const words = await shown.innerText();
    if (expectation === "thin-group-warning") t.match(words, /fewer than 5/, `${rule.kind}: the thin group is flagged`);
    else t.match(words, /widen/i, `${rule.kind}: what to widen, in words`);
    t.equal(await page.getByTestId("startup-error").count(), 0, `${rule.kind}: not an error page`);
    t.same(problems.filter((p) => !/status of 4\d\d/.test(p)), [], `${rule.kind}: no page errors`);
  }
});
