// The console end to end (issue 16), in Debian's Chromium: the demo user signs in through
// the dev provider, builds a peer group from a company search, and every figure shows
// the API's own answer for that group (asked here, independently, with the URL's peer
// group): counts, percentile, % covered, the spec's sentences; a chart's CSV holds the
// API's bands with the client's marked; a tooltip shows under the page's policy; the report
// prints on one page of A4 and of Letter; the page fits a phone's 375 px and a desktop,
// screenshots of both taken; a figure never shows an old answer with new client marks;
// sign-out stays signed out. A thin group is flagged; under the standard disclosure rule a
// refused group gets guidance to widen it, not an error page. A failed sign-in comes back to
// the peer group; a group without the client's amounts gets guidance, not "$0, 0th percentile";
// the company search says when nothing matches; ids the data no longer has, and the API's
// field problems, are shown beside the builder.
import t from "tap";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { LIMIT_BANDS, bandOfCents } from "../../src/benchmark/bands.js";
import { Decimal } from "../../src/benchmark/decimal.js";
import { STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import { money } from "../../src/benchmark/text.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import {
  CLIENT_PROGRAM,
  buildGroupFromCompany,
  busiestCompany,
  openSignedIn,
  signInAsDemo,
  startConsoleStack,
  waitForFigures,
  watchProblems,
  E2E_DATA,
  textOf,
} from "./helpers/console-stack.js";

const FIGURES = ["limit", "premium", "retention", "rpm", "adequacy"] as const;
const DISTRIBUTIONS = ["limit", "premium", "retention"] as const;

/** The peer group of the page's URL as an API query: the URL is the API's own names, plus the console's companyId. */
function apiQuery(page: Page): URLSearchParams {
  const query = new URLSearchParams(new URL(page.url()).search);
  query.delete("companyId");
  return query;
}

/** The same group in limit adequacy's parameter names (spec 2.10), defaults written out. */
function adequacyQuery(query: URLSearchParams): URLSearchParams {
  return new URLSearchParams({
    Naics: query.get("naics")!,
    CoverageId: query.get("coverageId")!,
    LobId: query.get("lineOfBusinessId") ?? "0",
    ExposureType: query.get("exposureType") ?? "Revenues",
    ExposureRangeLow: query.get("exposureRangeLow")!,
    ExposureRangeHigh: query.get("exposureRangeHigh")!,
    OrganizationType: query.get("organizationType") ?? "All",
    ClientLimit: query.get("limit")!,
  });
}

/** The limit table's client row (the table view is closed: its text is read, not seen). */
const clientLimitRow = (page: Page) => page.locator('[data-testid="limit-table"] .client-row th').textContent();

/** Pages of a PDF: its page objects, not the /Pages tree nodes. */
const pdfPages = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type\s*\/Page(?![a-z])/g)?.length ?? 0;

/** What the tests need of an ECharts instance (src/console/web/src/charts/use-chart.ts puts it on its element). */
interface ChartHandle {
  chart?: { convertToPixel(finder: { seriesIndex: number }, value: number[]): number[] };
}

/**
 * Moves the mouse into the RPM box, at a pixel the chart itself computes from the answer's
 * quartiles (the middle of the wider half of the box, on the "Peers" row), and waits for
 * its tooltip; false when it never shows.
 */
async function hoverRpmBox(
  page: Page,
  rpm: { firstQuartile: number; median: number; fourthQuartile: number },
): Promise<boolean> {
  const canvas = page.locator('[data-testid="rpm-chart"] .chart-canvas');
  // The mouse only reaches what is in the viewport.
  await canvas.scrollIntoViewIfNeeded();
  const { firstQuartile: q1, median, fourthQuartile: q3 } = rpm;
  const inside = median - q1 >= q3 - median ? (q1 + median) / 2 : (median + q3) / 2;
  const point = await canvas.evaluate(
    (element, value) =>
      (element as unknown as ChartHandle).chart?.convertToPixel({ seriesIndex: 0 }, [value, 0]) ?? null,
    inside,
  );
  if (!point) return false;
  // convertToPixel counts from the chart's own top left corner, which is the element's.
  const box = (await canvas.boundingBox())!;
  const tooltip = page.locator('[data-testid="rpm-chart"] .chart-tooltip').filter({ hasText: "Median" });
  // Two moves: a tooltip shows on a mousemove over the box, not on the pointer's arrival alone.
  await page.mouse.move(box.x + point[0]! - 1, box.y + point[1]!);
  await page.mouse.move(box.x + point[0]!, box.y + point[1]!);
  return tooltip.waitFor({ state: "visible", timeout: 15_000 }).then(
    () => true,
    () => false,
  );
}

t.test(
  "sign in, build a peer group from a company search: every figure shows the API's answer; CSV, tooltip, print, phone; sign out",
  async (t) => {
    const paths = consolePaths();
    await ensureConsoleBuilt(paths);
    const { base, issuer, settings, knex } = await startConsoleStack(t, paths.outDir, { data: E2E_DATA });
    const token = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
    const api = async (path: string, query: URLSearchParams) => {
      const response = await fetch(`${base}${settings.apiBase}${path}?${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      t.equal(response.status, 200, `the API answers ${path}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const company = await busiestCompany(knex);

    const browser = await startBrowser(t);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const tokenAnswer = page.waitForResponse(
      (response) => response.url().endsWith("/oidc/token") && response.request().method() === "POST",
      { timeout: 60_000 },
    );
    await openSignedIn(page, `${base}/console/`, t);

    // Tokens stay in the page's memory (README, Console): none in either storage.
    const tokens = (await (await tokenAnswer).json()) as { access_token: string; id_token?: string };
    const stored = (await page.evaluate(
      "JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])",
    )) as string;
    t.notOk(stored.includes(tokens.access_token), "the access token is in neither localStorage nor sessionStorage");
    t.notOk(tokens.id_token && stored.includes(tokens.id_token), "nor the ID token");
    t.notMatch(stored, /eyJ[\w-]+\.eyJ/, "nor any JWT");

    await buildGroupFromCompany(page, company);
    t.equal(
      await page.getByTestId("company-search").getAttribute("role"),
      "combobox",
      "the company search is an ARIA combobox",
    );
    t.pass(`chose ${company.name} and typed the client's program: the peer group is in the URL`);

    const query = apiQuery(page);
    const assessment = await api("/assessment/getassessmentdata", query);
    t.ok(
      (assessment.totalProgramCount as number) > 0,
      `a peer group of ${String(assessment.totalProgramCount)} programs`,
    );
    for (const figure of FIGURES) {
      t.equal(
        Number(await textOf(page, `${figure}-programs`)),
        assessment.totalProgramCount,
        `${figure}: the API's program count`,
      );
      t.equal(
        Number(await textOf(page, `${figure}-losses`)),
        assessment.totalLossCount,
        `${figure}: the API's loss count`,
      );
    }
    for (const kind of DISTRIBUTIONS) {
      const distribution = assessment[`${kind}Distribution`] as { chartDescription: string };
      t.equal(
        await textOf(page, `${kind}-sentence`),
        distribution.chartDescription,
        `${kind}: the spec's chart sentence, as the API wrote it`,
      );
    }
    const rpm = await api("/assessment/getrpmdistributiondata", query);
    t.equal(
      Number(await textOf(page, "rpm-percentile")),
      rpm.nthPercent,
      "the client's RPM percentile, as the API has it",
    );
    t.equal(
      await textOf(page, "rpm-sentence"),
      (rpm.chartDescription as string).replace("Rate Per Million(RPM)", "rate per million (RPM)"),
      "RPM: the spec's chart sentence, its name written as the page writes it (issue 50)",
    );
    const adequacy = await api("/lossdetails/limitadequacy", adequacyQuery(query));
    t.equal(
      await textOf(page, "adequacy-percent-covered"),
      `${String(adequacy.percentCovered)}%`,
      "limit adequacy: the API's % covered",
    );
    t.equal(
      await textOf(page, "adequacy-median-limit"),
      money(new Decimal(adequacy.medianLimit as number)),
      "limit adequacy: the API's median peer limit, in the spec's money()",
    );
    t.equal(await page.getByTestId("data-version").innerText(), "1", "the data version the report quotes");
    t.equal(await page.getByTestId("thin-group-warning").count(), 0, "no thin-group warning");

    // The limit distribution's CSV: the API's bands and counts, the client's band marked.
    const download = page.waitForEvent("download");
    await page.getByTestId("limit-csv").click();
    const file = await download;
    // Named and headed with what it is about (issue 27): the client, the coverage, the group, the data version.
    t.match(
      file.suggestedFilename(),
      /^limit-distribution_[a-z0-9-]+_[a-z0-9-]+_data-v1_\d{4}-\d{2}-\d{2}\.csv$/,
      "the file names the figure, client, coverage, data version and date",
    );
    const text = await readFile((await file.path())!, "utf8");
    t.ok(text.startsWith("\uFEFF"), "a UTF-8 byte order mark first, for Excel on Windows (issue 50)");
    const lines = text.slice(1).trim().split(/\r?\n/);
    const head = lines.slice(0, lines.indexOf(""));
    t.same(
      head.map((line) => line.split(",")[0]),
      ["Figure", "Client", "Coverage", "Peer group", "Data version", "Date"],
      "header lines: the figure, client, coverage, group, data version and date",
    );
    t.ok(head[1]!.includes(company.name), "the client's name");
    t.equal(head[4], "Data version,1", "the data version");
    // The client's amount and percentile, as the panel's sentence has them (issue 50), then the table.
    const afterHead = lines.slice(lines.indexOf("") + 1);
    const client = afterHead.slice(0, afterHead.indexOf(""));
    const sentence = await page.getByTestId("limit-sentence").innerText();
    t.same(
      client,
      [`Client limit,${CLIENT_PROGRAM.Limit}`, `Client percentile,${/in the (\d+\w\w) percentile/.exec(sentence)![1]}`],
      "the client's limit and its percentile, as the sentence says",
    );
    const csv = afterHead.slice(afterHead.indexOf("") + 1);
    const bands = (assessment.limitDistribution as { bands: { bandSeq: number; programCount: number }[] }).bands;
    t.equal(csv[0], "Band,Band label,Programs,Client band", "a header row");
    const rows = csv.slice(1).map((line) => line.split(","));
    t.same(
      rows.map((cells) => [Number(cells[0]), Number(cells.at(-2))]),
      bands.map((band) => [band.bandSeq, band.programCount]),
      "one row per band, the API's counts",
    );
    const clientBand = bandOfCents(LIMIT_BANDS, Number(CLIENT_PROGRAM.Limit) * 100) + 1;
    t.same(
      rows.filter((cells) => cells.at(-1) === "yes").map((cells) => Number(cells[0])),
      [clientBand],
      `the client's limit marks its band (${LIMIT_BANDS.labels[clientBand - 1]}), and only that one`,
    );

    // A tooltip: class-based markup, so the policy's style-src refuses nothing (watchProblems below).
    t.ok(
      await hoverRpmBox(page, rpm as { firstQuartile: number; median: number; fourthQuartile: number }),
      "hovering the RPM box shows its tooltip",
    );

    // The printed report: one to three portrait pages on A4 and on Letter (console-print-report.test.ts reads them).
    for (const format of ["A4", "Letter"] as const) {
      const pdf = await page.pdf({ format });
      t.ok(pdfPages(pdf) >= 1 && pdfPages(pdf) <= 3, `the report prints on one to three ${format} pages`);
    }

    const shots = await createTempDir(t, "cpb-console-shots-");
    const desktop = await page.screenshot({ path: `${shots}/desktop.png`, fullPage: true });
    t.ok(desktop.length > 20_000, `a desktop screenshot (${desktop.length} bytes)`);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByTestId("limit-chart").waitFor();
    // The charts follow their boxes on ResizeObserver's next round: until then a canvas may still be desktop-wide.
    await page
      .waitForFunction("document.documentElement.scrollWidth <= document.documentElement.clientWidth", null, {
        timeout: 10_000,
      })
      .catch(() => {});
    const overflow = await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    t.equal(overflow, 0, "no horizontal scroll at 375 px (and nothing hides it: body does not clip)");
    t.equal(
      await page.evaluate("getComputedStyle(document.body).overflowX"),
      "visible",
      "the body does not hide overflow",
    );
    const phone = await page.screenshot({ path: `${shots}/phone.png`, fullPage: true });
    t.ok(phone.length > 20_000, `a phone screenshot (${phone.length} bytes)`);
    await page.setViewportSize({ width: 1280, height: 900 });

    // A link is the peer group: a colleague's browser opening the URL shows the same counts.
    const shared = await (await browser.newContext()).newPage();
    await openSignedIn(shared, page.url(), t);
    await waitForFigures(shared);
    t.equal(
      Number(await textOf(shared, "limit-programs")),
      assessment.totalProgramCount,
      "the link opens the same peer group",
    );

    // While a new answer loads, the old one keeps its own client marks, the results say they
    // are busy, and the report cannot be printed half old, half new.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = () => {};
    const asked = new Promise<void>((resolve) => (requested = resolve));
    const isAssessment = (url: URL) => url.pathname.endsWith("/assessment/getassessmentdata");
    await page.route(isAssessment, async (route) => {
      requested();
      await held;
      await route.continue();
    });
    const before = await clientLimitRow(page);
    await page.getByLabel("Limit", { exact: true }).fill("50000");
    await page.getByLabel("Limit", { exact: true }).press("Tab");
    await page.waitForURL((url) => url.searchParams.get("limit") === "50000");
    // The page has drawn the new group and asked for its answer, which is held: what shows now is what a broker sees meanwhile.
    await asked;
    t.equal(
      await page.getByTestId("results").getAttribute("aria-busy"),
      "true",
      "the results are busy while the new answer loads",
    );
    t.ok(await page.getByTestId("print-report").isDisabled(), "Print is disabled while loading");
    t.equal(await clientLimitRow(page), before, "the old answer keeps the old client band, not the new limit's");
    release();
    await waitForFigures(page);
    await page.unroute(isAssessment);
    t.match(await clientLimitRow(page), /^0-100K/, "the new answer marks the new limit's band");
    t.notOk(await page.getByTestId("print-report").isDisabled(), "Print is enabled again");

    t.same(problems, [], "no page errors, nothing the policy blocks");

    // The app's Sign out: the provider's session ends, and back on the console nothing signs in again by itself.
    const authorizations: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/oidc/auth") authorizations.push(request.url());
    });
    await page.getByTestId("sign-out").click();
    // The provider's own question (RP-initiated logout); its "Sign out" button, not the app's.
    await page.waitForURL((url) => url.pathname === "/oidc/session/end", { timeout: 15_000 });
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/console/", { timeout: 15_000 });
    await page.locator('[data-testid="auth-state"][data-state="signed-out"]').waitFor({ timeout: 15_000 });
    // Settled: every request the page started has answered (an automatic sign-in would be one of them, or follow one).
    await page.waitForLoadState("networkidle");
    t.same(authorizations, [], "signed out: no authorization request, no automatic sign-in");
    t.equal(new URL(page.url()).pathname, "/console/", "still on the console");
    t.equal(await page.getByTestId("sign-in").count(), 1, "a Sign in button instead");
  },
);

t.test("a thin group is flagged; under the standard rule a refused group gets guidance, not an error", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const browser = await startBrowser(t);
  for (const [rule, expectation] of [
    [{ kind: "none" } as const, "thin-group-warning"],
    [STANDARD_RULE, "refusal-guidance"],
  ] as const) {
    const { base, knex } = await startConsoleStack(t, paths.outDir, { data: E2E_DATA, disclosure: rule });
    // One company's subsector and its own revenues: a group of that company's few programs.
    const [row] = (await knex("companies as c")
      .join("programs as p", "p.company_id", "c.company_id")
      .whereNotNull("c.naics3")
      .whereNotNull("c.revenues")
      .groupBy("c.company_id", "c.naics3", "c.revenues", "p.coverage_id")
      .havingRaw("count(*) between 1 and 4")
      .orderBy("c.company_id")
      .limit(1)
      .select("c.naics3", "c.revenues", "p.coverage_id")) as {
      naics3: string;
      revenues: string;
      coverage_id: number;
    }[];
    const group = new URLSearchParams({
      naics: row!.naics3,
      coverageId: String(row!.coverage_id),
      exposureType: "Revenues",
      exposureRangeLow: row!.revenues,
      exposureRangeHigh: row!.revenues,
    });
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await openSignedIn(page, `${base}/console/?${group}`, t);
    const shown = page.getByTestId(expectation);
    await shown.waitFor({ timeout: 30_000 });
    const words = await shown.innerText();
    if (expectation === "thin-group-warning") t.match(words, /fewer than 5/, `${rule.kind}: the thin group is flagged`);
    else {
      // Issue 27, item 5: explained once, naming the condition; the panels only say withheld.
      await waitForFigures(page);
      t.equal(await page.getByTestId("refusal-guidance").count(), 1, "one explanation");
      t.match(
        await textOf(page, "refusal-condition"),
        /^Fewer than 5 companies hold programs in this peer group\.$/,
        "it names the condition",
      );
      // The advice is the API's suggestions (issue 30) once they come: read it when they have.
      await shown.getByTestId("suggestions-loading").waitFor({ state: "detached", timeout: 30_000 });
      const advice = await shown.innerText();
      t.match(advice, /widen/i, `${rule.kind}: what to widen, in words`);
      t.notMatch(advice, /window/i, "no advice to widen the window: it is already 24 months to today");
      const states: Record<string, string> = {};
      for (const figure of FIGURES) {
        const refusal = page.getByTestId(`${figure}-refusal`);
        states[figure] = (await refusal.count()) > 0 ? "withheld" : "shown";
        if (states[figure] === "withheld") {
          t.match(await refusal.innerText(), /^Withheld: the /, `${figure}: says withheld, and what it would show`);
          t.notMatch(await refusal.innerText(), /widen/i, `${figure}: no advice of its own`);
        }
      }
      t.equal(states.adequacy, states.limit, "limit adequacy and the limit distribution: both shown or both withheld");
      if (Object.values(states).every((s) => s === "withheld"))
        t.ok(await page.getByTestId("print-report").isDisabled(), "nothing to print: Print is disabled");
      else t.fail(`expected every figure withheld for one company's programs: ${JSON.stringify(states)}`);
    }
    t.equal(await page.getByTestId("startup-error").count(), 0, `${rule.kind}: not an error page`);
    t.same(
      problems.filter((p) => !/status of 4\d\d/.test(p)),
      [],
      `${rule.kind}: no page errors`,
    );
  }
});

t.test(
  "a failed sign-in comes back to the peer group; no client amounts get guidance; unknown ids and refused fields are shown",
  async (t) => {
    const paths = consolePaths();
    await ensureConsoleBuilt(paths);
    const { base, issuer, knex } = await startConsoleStack(t, paths.outDir);
    // A peer group with none of the client's amounts: the busiest sector and coverage, any size.
    const [row] = (await knex("companies as c")
      .join("programs as p", "p.company_id", "c.company_id")
      .whereNotNull("c.naics2")
      .groupBy("c.naics2", "p.coverage_id")
      .orderByRaw("count(*) desc, c.naics2, p.coverage_id")
      .limit(1)
      .select("c.naics2", "p.coverage_id")) as { naics2: string; coverage_id: number }[];
    const group = `?naics=${row!.naics2}&coverageId=${row!.coverage_id}&exposureRangeLow=0&exposureRangeHigh=1000000000000`;
    const browser = await startBrowser(t);
    const page = await browser.newPage();
    const problems = watchProblems(page);

    // No session: the page goes to the provider by itself, remembering the group.
    const authorization = page.waitForRequest((request) => new URL(request.url()).pathname.endsWith("/oidc/auth"));
    await page.goto(`${base}/console/${group}`);
    const state = new URL((await authorization).url()).searchParams.get("state")!;
    await page.waitForURL(/\/oidc\/interaction\//);
    t.pass("signed in automatically: straight to the provider's login page");

    // A callback whose state matches no sign-in of this tab.
    await page.goto(`${base}/console/?code=forged&state=not-${state}`);
    await page.getByTestId("sign-in-error").waitFor();
    t.equal(new URL(page.url()).search, group, "a bad state: back on the peer group's URL");
    // The provider's refusal, for the sign-in the page did start.
    await page.goto(
      `${base}/console/?error=access_denied&error_description=${encodeURIComponent("the broker cancelled")}&state=${state}&iss=${encodeURIComponent(issuer)}`,
    );
    await page.getByTestId("sign-in-error").waitFor();
    t.match(await textOf(page, "sign-in-error"), /access_denied: the broker cancelled/, "the provider's words");
    t.equal(new URL(page.url()).search, group, "the provider's error: back on the peer group's URL");
    t.equal(
      await page.locator('[data-testid="auth-state"]').getAttribute("data-state"),
      "signed-out",
      "no automatic retry after a failure",
    );
    await page.getByTestId("sign-in").click();
    await signInAsDemo(page, t);
    await page.locator('[data-testid="auth-state"][data-state="signed-in"]').waitFor({ timeout: 30_000 });
    t.equal(new URL(page.url()).search, group, "signing in again returns to the peer group");

    // No client amounts: guidance in place of the API's "$0 ... 0th percentile" sentences.
    await waitForFigures(page);
    for (const figure of FIGURES) {
      t.equal(await page.getByTestId(`${figure}-sentence`).count(), 0, `${figure}: no sentence about a $0 client`);
      t.match(
        await textOf(page, `${figure}-guidance`),
        /^Enter the client's limit|^Enter the client's (premium|retention)/,
        `${figure}: says what to enter`,
      );
    }
    t.notMatch(
      await page.getByTestId("results").innerText(),
      /\b0th percentile|of \$0\b/,
      "nowhere a $0 client or a 0th percentile",
    );
    t.equal(await page.getByTestId("adequacy-percent-covered").count(), 0, "no % covered without a client limit");

    // The company search says what it found, visibly and to a screen reader.
    await page.getByTestId("company-search").fill("Zzqx");
    const status = page.getByTestId("company-search-status");
    await status.filter({ hasText: "No company" }).waitFor({ timeout: 15_000 });
    t.equal(await status.getAttribute("aria-live"), "polite", "a live region");
    t.ok(await status.isVisible(), "visible, not only to a screen reader");
    t.match(await status.innerText(), /No company's name contains “Zzqx”/, "no match, in words");

    // An old link: a coverage and an organization type the data does not have.
    await page.goto(
      `${base}/console/?naics=52&coverageId=999&organizationType=XYZ&exposureRangeLow=0&exposureRangeHigh=1000000`,
    );
    await page.locator('[data-testid="auth-state"][data-state="signed-in"]').waitFor({ timeout: 30_000 });
    await page.getByTestId("unknown-ids").waitFor({ timeout: 30_000 });
    t.match(
      await textOf(page, "unknown-ids"),
      /coverage 999.*organization type XYZ/,
      "the ids the reference data no longer has",
    );
    await page.getByTestId("group-problems").filter({ hasText: "not a known coverage" }).waitFor({ timeout: 30_000 });
    t.match(
      await textOf(page, "group-problems"),
      /coverageId: 999 is not a known coverage/,
      "the API's field problem, beside the builder",
    );

    t.same(
      problems.filter((p) => !/status of 4\d\d/.test(p)),
      [],
      "no page errors",
    );
  },
);
