// Issue 50, in Chromium as a broker meets it: no figure a broker could misread, no click
// that loses the client.
// - limit adequacy with $0 cases: the paid losses lead, the API's all-cases figure beside
//   them, labelled, each equal to what the API's own cases give; the CSV says both;
// - amounts: "5MM" is $5,000,000, "1,5m" is refused as a possible decimal comma, a limit
//   of $0 is refused, and a link's "2M" is read as a typed one;
// - the company box: a stray edit keeps the client; emptying it drops the client with an
//   Undo that brings the whole group back;
// - search: names whose words start with the typed words come first;
// - the trend's three rows share one time axis, and no median sits on its axis line.
import t from "tap";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import { drawnCharts, overlapping } from "./helpers/chart-labels.js";
import type { ApiPeriod } from "./helpers/trend-table.js";
import type { TrendPeriod } from "../../src/console/web/src/api/types.js";
import { shownPeriods } from "./helpers/trend-table.js";
import { trendHeadline } from "../../src/console/web/src/figures/trend-headline.js";
import {
  buildGroupFromCompany,
  busiestCompany,
  CLIENT_PROGRAM,
  openSignedIn,
  startConsoleStack,
  waitForFigures,
  watchProblems,
  E2E_DATA,
  textOf,
  urlParam,
} from "./helpers/console-stack.js";

/** Two names that both hold "zephyr" and "fin": the staffing firm, by id first, has "fin" inside a word. */
const STAFFING = { company_id: 9_000_001, company_name: 'Zephyr "Gold Star" Staffing L.P.', organization_type: "PRV" };
/** A company with no NAICS code on record: its group must be completed by hand, not searched for again. */
const NO_NAICS = { company_id: 9_000_003, company_name: "Quillon Unclassified Ventures", organization_type: "PRV" };
const FINANCIAL = { company_id: 9_000_002, company_name: "Zephyr Financial Corporation", organization_type: "PRV" };

/** Every chart row's plot rectangle and value-axis extent, with the medians drawn, from the trend's ECharts instance. */
async function trendAxes(page: Page) {
  return page.locator('[data-testid="trend-chart"] .chart-canvas').evaluate((element) => {
    interface Axis {
      scale: { getExtent(): [number, number] };
    }
    interface Chart {
      getModel(): {
        getComponent(
          type: string,
          index: number,
        ): { coordinateSystem?: { getRect(): { x: number; width: number; height: number } }; axis: Axis };
      };
      getOption(): { series: { name: string; data: (number | null | { value: number | null })[] }[] };
    }
    const chart = (element as unknown as { chart: Chart }).chart;
    const medians = chart.getOption().series.filter((s) => s.name.endsWith(" median"));
    return medians.map((series, i) => {
      const rect = chart.getModel().getComponent("grid", i).coordinateSystem!.getRect();
      const values = series.data
        .map((d) => (d !== null && typeof d === "object" ? d.value : d))
        .filter((v): v is number => v !== null);
      return {
        name: series.name,
        left: rect.x,
        width: rect.width,
        height: rect.height,
        axis: chart.getModel().getComponent("yAxis", i).axis.scale.getExtent(),
        min: Math.min(...values),
        max: Math.max(...values),
      };
    });
  });
}

t.test("a broker's reading: $0 cases, amounts, the client kept, search order, trend axes", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const { base, issuer, settings, knex } = await startConsoleStack(t, paths.outDir, { data: E2E_DATA });
  await knex("companies").insert([STAFFING, FINANCIAL, NO_NAICS]);
  const token = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
  const company = await busiestCompany(knex);
  const browser = await startBrowser(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await openSignedIn(page, `${base}/console/`, t);
  await buildGroupFromCompany(page, company);

  // $0 cases: the API's cases for the page's group, and what the panel says of them.
  await t.test("item 1: $0 cases", async (t) => {
    const query = new URL(page.url()).searchParams;
    const adequacyAnswer = await fetch(`${base}${settings.apiBase}/lossdetails/getlimitadequacydata`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        naics: query.get("naics")!.split(","),
        coverageId: Number(query.get("coverageId")),
        lineOfBusinessId: [0],
        exposureType: query.get("exposureType") ?? "Revenues",
        exposureRangeLow: Number(query.get("exposureRangeLow")),
        exposureRangeHigh: Number(query.get("exposureRangeHigh")),
        organizationType: query.get("organizationType")?.split(",") ?? ["All"],
        clientLimit: Number(CLIENT_PROGRAM.Limit),
      }),
    });
    t.equal(adequacyAnswer.status, 200);
    const adequacy = (await adequacyAnswer.json()) as {
      percentCovered: number;
      listOfCases: { lossAmount: number }[];
    };
    const cases = adequacy.listOfCases;
    const zero = cases.filter((c) => c.lossAmount === 0).length;
    const paid = cases.length - zero;
    const paidWithin = cases.filter((c) => c.lossAmount > 0 && c.lossAmount <= Number(CLIENT_PROGRAM.Limit)).length;
    t.ok(zero > 0 && paid > 1, `the group has cases closed at $0 (${zero}) and paid ones (${paid})`);
    const paidPercent = Math.round((100 * paidWithin) / paid);
    t.equal(
      await textOf(page, "adequacy-sentence"),
      `${paid} paid losses (${zero} ${zero === 1 ? "case" : "cases"} closed at $0): ${paidPercent}% within the client's limit of $5,000,000; all ${cases.length} cases: ${adequacy.percentCovered}%.`,
      "the headline leads with the paid losses, the API's figure labelled beside it",
    );
    t.equal(
      await textOf(page, "adequacy-paid-within"),
      `${paidPercent}% (${paidWithin} of ${paid})`,
      "the paid losses within the limit",
    );
    t.equal(await textOf(page, "adequacy-percent-covered"), `${adequacy.percentCovered}%`, "and all cases, as the API");
    const download = page.waitForEvent("download");
    await page.getByTestId("adequacy-csv").click();
    const csv = await readFile((await (await download).path())!, "utf8");
    t.match(csv, `\r\nPaid losses within the client limit (%),${paidPercent}\r\n`, "the CSV has the paid figure");
    t.match(
      csv,
      `\r\n"All cases within the client limit, $0 included (%)",${adequacy.percentCovered}\r\n`,
      "and the API's, labelled",
    );
    t.match(csv, `\r\nClient limit,${CLIENT_PROGRAM.Limit}\r\n`, "and the client's limit");
  });

  // Two loss counts that disagreed unexplained: the panels' has no date filter (SEMANTICS 8), the trend's is its periods'.
  await t.test("item 3: each loss count says what it counts", async (t) => {
    for (const figure of ["limit", "rpm", "adequacy"])
      t.ok(
        (await page.getByTestId(`${figure}-figure`).locator("dt").allInnerTexts()).includes("Losses, any date"),
        `${figure}: “Losses, any date”`,
      );
    t.ok(
      (await page.getByTestId("trend-figure").locator("dt").allInnerTexts()).includes("Losses in the periods"),
      "the trend: “Losses in the periods”",
    );
  });

  // Amounts as US brokers type them; a possible decimal comma is never guessed; no $0 limit.
  await t.test("items 1, 5, 9: amounts", async (t) => {
    const limit = page.getByTestId("client-limit");
    await limit.fill("1,5m");
    await limit.press("Tab");
    t.match(await textOf(page, "client-limit-note"), /decimal comma/, "“1,5m” is refused, with the reason");
    t.equal(urlParam(page, "limit"), CLIENT_PROGRAM.Limit, "and the limit stays as it was");
    await limit.fill("0");
    await limit.press("Tab");
    t.match(await textOf(page, "client-limit-note"), /more than \$0/, "a limit of $0 is refused");
    await limit.fill("$7.5MM");
    await limit.press("Tab");
    await page.waitForURL((url) => url.searchParams.get("limit") === "7500000");
    t.pass("$7.5MM is 7500000");
    await limit.fill("5 million");
    await limit.press("Tab");
    await page.waitForURL((url) => url.searchParams.get("limit") === "5000000");
    t.pass("“5 million” is 5000000");
    await waitForFigures(page);
    // The amount already committed, typed again as brokers write it: read back as money, not left as typed.
    await limit.fill("$5mm");
    await limit.press("Tab");
    t.equal(await limit.inputValue(), "$5,000,000", "“$5mm” is $5,000,000, read back as money");
    t.equal(urlParam(page, "limit"), "5000000");
    const premium = page.getByTestId("client-premium");
    await premium.fill("10,5");
    await premium.press("Tab");
    t.match(await textOf(page, "client-premium-note"), /decimal comma/, "“10,5” is refused, never read as $105");
    t.equal(urlParam(page, "premium"), CLIENT_PROGRAM.Premium, "and the premium stays as it was");
    await premium.fill("40K");
    await premium.press("Tab");
  });

  // A stray edit of the company box keeps the client and its amounts.
  const box = page.getByTestId("company-search");
  let before = "";
  await t.test("item 7: the client kept, or dropped with Undo", async (t) => {
    await box.fill(`${company.name} `);
    await box.press("Tab");
    await page.waitForTimeout(400);
    t.equal(urlParam(page, "companyId"), company.id, "a space added and Tab: the client stays");
    t.equal(urlParam(page, "limit"), "5000000", "with its limit");
    t.equal(await box.inputValue(), company.name, "the box shows the client's name again");
    await box.fill("something else");
    await box.press("Escape");
    await box.press("Escape");
    t.equal(await box.inputValue(), company.name, "Escape restores it too");
    t.equal(urlParam(page, "companyId"), company.id);

    // Emptying the box drops the client, on purpose, with Undo.
    before = new URL(page.url()).search;
    await box.fill("");
    await box.press("Tab");
    await page.waitForURL((url) => !url.searchParams.has("companyId"));
    t.equal(urlParam(page, "limit"), null, "the client's amounts go with it");
    await page.getByTestId("client-undo").click();
    await page.waitForURL((url) => url.searchParams.get("companyId") === company.id);
    t.equal(new URL(page.url()).search, before, "Undo brings the whole group back, amounts and all");
    t.equal(
      await page.evaluate("document.activeElement?.dataset.testid"),
      "client-limit",
      "focus goes to the amounts Undo brought back, not the page's body",
    );
    await waitForFigures(page);
  });

  // Focus stays where the broker works: Tab out of retention starts the loading, which
  // used to disable the Print button under the focus and drop it to the page's body.
  await t.test("item 10: focus after Tab out of retention", async (t) => {
    const retention = page.getByTestId("client-retention");
    await retention.fill("300000");
    await retention.press("Tab");
    await page.waitForURL((url) => url.searchParams.get("retention") === "300000");
    await waitForFigures(page);
    t.equal(await page.evaluate("document.activeElement?.dataset.testid"), "print-report", "on the next control");
  });

  // A partial refusal: the assessment withheld by the disclosure rule, RPM answered. The
  // API's refusal is played by routing (the rule's data would take a data set of its own).
  await t.test("a partial refusal: counts said withheld, not “–”, beside an answered figure", async (t) => {
    const isAssessment = (url: URL) => url.pathname.endsWith("/assessment/getassessmentdata");
    await page.route(isAssessment, (route) =>
      route.fulfill({
        status: 400,
        headers: { "content-type": "application/problem+json" },
        body: JSON.stringify({
          status: 400,
          code: "failed_precondition",
          title: "Bad Request",
          detail: "the peer group's figures are withheld: fewer than 5 companies",
          disclosure: { condition: "min_companies", threshold: 5, suggestion: null },
        }),
      }),
    );
    const limit = page.getByTestId("client-limit");
    await limit.fill("6M");
    await limit.press("Tab");
    await page.waitForURL((url) => url.searchParams.get("limit") === "6000000");
    await waitForFigures(page);
    await page.getByTestId("limit-refusal").waitFor({ timeout: 30_000 });
    t.match(await textOf(page, "rpm-percentile"), /^\d/, "RPM answered, its rank shown");
    t.equal(await textOf(page, "rpm-programs"), "withheld", "its programs: withheld, not a dash");
    t.equal(await textOf(page, "rpm-losses"), "withheld", "its losses too");
    await page.unroute(isAssessment);
    await limit.fill("5M");
    await limit.press("Tab");
    await page.waitForURL((url) => url.searchParams.get("limit") === "5000000");
    await waitForFigures(page);
  });

  // The trend: one time axis for three rows of the same width; no median on its axis line.
  await t.test("item 4: the trend's axes", async (t) => {
    const rows = await trendAxes(page);
    t.equal(rows.length, 3);
    t.ok(
      rows.every((r) => r.left === rows[0]!.left && r.width === rows[0]!.width),
      `the three rows' plots line up: ${rows.map((r) => `${r.left}+${r.width}`).join(", ")}`,
    );
    // The limit row was half as tall as the two above it, drawn unlike them.
    t.ok(
      rows.every((r) => r.height === rows[0]!.height),
      `the three rows are as tall: ${rows.map((r) => r.height).join(", ")}`,
    );
    for (const row of rows)
      t.ok(row.axis[0] < row.min && row.axis[1] > row.max, `${row.name}: ${row.min}..${row.max} inside ${row.axis}`);
  });

  // No label over another where a broker reads them: the trend's and limit adequacy's, on
  // screen, on a phone and on paper.
  await t.test("items 4 and cosmetics: labels that do not overlap", async (t) => {
    for (const [where, width] of [
      ["screen", 1280],
      ["phone", 375],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(400);
      for (const chart of (await drawnCharts(page)).filter((c) => ["trend-chart", "adequacy-chart"].includes(c.testId)))
        t.same(overlapping(chart.texts), [], `${where}: ${chart.testId}: no label over another`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate("dispatchEvent(new Event('beforeprint'))");
    for (const chart of (await drawnCharts(page)).filter((c) => ["trend-chart", "adequacy-chart"].includes(c.testId)))
      t.same(overlapping(chart.texts), [], `paper: ${chart.testId}: no label over another`);
    await page.evaluate("dispatchEvent(new Event('afterprint'))");
  });

  await t.test("cosmetics: amounts read back as money, the RPM sentence, the sector's name whole", async (t) => {
    t.equal(await page.getByTestId("client-limit").inputValue(), "$5,000,000", "a committed limit shows as money");
    t.match(await textOf(page, "rpm-sentence"), /rate per million \(RPM\) of/, "not “Rate Per Million(RPM)”");
    const ordinal = /in the (\d+\w\w) percentile/.exec(await textOf(page, "rpm-sentence"))![1]!;
    t.equal(
      (await textOf(page, "rpm-percentile-rounded")).trim(),
      `(the sentence's ${ordinal} percentile, rounded)`,
      "the rank beside the sentence says which ordinal the sentence made of it",
    );
    // The sector select has the sidebar's width: beside the subsector's, each had half and cut the names.
    const widths = await page.locator("#naics-sector").evaluate((element) => {
      interface Box {
        getBoundingClientRect(): { left: number; right: number; width: number };
        closest(selector: string): Box | null;
      }
      const select = (element as unknown as Box).getBoundingClientRect();
      const field = (element as unknown as Box).closest("fieldset")!.getBoundingClientRect();
      return { select: select.width, field: field.width, inside: select.right <= field.right };
    });
    t.ok(
      widths.inside && widths.select >= 0.8 * widths.field,
      `the sector select is the field's width: ${JSON.stringify(widths)}`,
    );
  });

  // The company list shows several companies at once, each name with its sector under it.
  await t.test("cosmetics: the company list shows more than 2.5 companies", async (t) => {
    const box = page.getByTestId("company-search");
    await box.fill("a");
    await page.getByTestId("company-option").nth(5).waitFor({ timeout: 15_000 });
    await page.getByTestId("company-option-meta").first().filter({ hasText: "NAICS" }).waitFor({ timeout: 15_000 });
    const visible = await page.locator("#company-listbox").evaluate((list) => {
      interface Box {
        getBoundingClientRect(): { top: number; bottom: number };
        querySelectorAll(selector: string): ArrayLike<Box>;
      }
      const outer = (list as unknown as Box).getBoundingClientRect();
      return Array.from((list as unknown as Box).querySelectorAll("[role=option]")).filter((option) => {
        const r = option.getBoundingClientRect();
        return r.top >= outer.top && r.bottom <= outer.bottom;
      }).length;
    });
    t.ok(visible >= 5, `${visible} companies in view at once`);
    await box.press("Escape");
    await box.press("Escape");
  });

  // The amounts' coverage: a D&O limit placed among another coverage's peers says so, in each panel and CSV.
  await t.test("item 6: amounts entered for another coverage", async (t) => {
    const coverage = page.locator("#coverage-id");
    const from = await coverage.inputValue();
    const values = await coverage
      .locator("option")
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value).filter((v) => v !== ""));
    await coverage.selectOption(values.find((v) => v !== from)!);
    await page.waitForURL((url) => url.searchParams.get("amountsCoverageId") === from);
    await waitForFigures(page);
    for (const figure of ["limit", "premium", "retention", "rpm", "adequacy"])
      t.match(
        await textOf(page, `${figure}-client-note`),
        /The client's amounts were entered for .+, not .+: their percentiles place them among .+ peers\./,
        `${figure}: the panel says so`,
      );
    const download = page.waitForEvent("download");
    await page.getByTestId("rpm-csv").click();
    const csv = await readFile((await (await download).path())!, "utf8");
    t.match(csv, /\r\nNote,"?The client's amounts were entered for /, "and the CSV");
    // The RPM CSV gives the rank as the facts do: exact, and the ordinal the sentence rounds it to.
    const exact = await textOf(page, "rpm-percentile");
    const rounded = /the sentence's (\S+) percentile/.exec(await textOf(page, "rpm-percentile-rounded"))![1];
    t.ok(csv.includes(`\r\nClient percentile,${exact}\r\n`), `the RPM CSV's exact rank, ${exact}`);
    t.ok(
      csv.includes(`\r\n"Client percentile, as the sentence rounds it",${rounded}\r\n`),
      `and the sentence's ${rounded}`,
    );
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has("amountsCoverageId"));
    await waitForFigures(page);
  });

  // Search: word starts first. By id, the staffing firm would lead ("Staffing" holds "fin").
  await t.test("item 11: search ranks word starts first", async (t) => {
    await box.fill("zephyr fin");
    const first = page.getByTestId("company-option").first();
    await first.filter({ hasText: "Zephyr" }).waitFor({ timeout: 15_000 });
    t.equal(await first.getAttribute("data-company-id"), String(FINANCIAL.company_id), "Zephyr Financial first");
    t.equal(await page.getByTestId("company-option").count(), 2, "and the staffing firm still found, after it");
    await box.press("ArrowDown");
    await box.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("companyId") === String(FINANCIAL.company_id));
    t.pass("ArrowDown then Enter picks the company the words name");
  });

  await t.test("a company with no NAICS code is completed by hand", async (t) => {
    const box = page.getByTestId("company-search");
    // The last pick's name first in the box: the record's lookup sets it, and would overwrite what is typed meanwhile.
    while ((await box.inputValue()) !== FINANCIAL.company_name) await page.waitForTimeout(50);
    await box.fill("quillon");
    await page.locator(`[data-testid="company-option"][data-company-id="${NO_NAICS.company_id}"]`).waitFor();
    await box.press("ArrowDown");
    await box.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("companyId") === String(NO_NAICS.company_id));
    await page.getByTestId("incomplete-group").filter({ hasText: "Quillon" }).waitFor({ timeout: 15_000 });
    t.match(
      await textOf(page, "incomplete-group"),
      /Complete Quillon Unclassified Ventures's peer group by hand:/,
      "not “Search for the client's company to start”",
    );
    t.match(
      await page.locator("#company-search-hint").innerText(),
      /fills in its NAICS sector/,
      "the hint says sector",
    );
  });

  // Bad links: every input named where it is.
  await t.test("item 8 and bad links: every invalid input named", async (t) => {
    await page.goto(`${base}/console/${before.replace(/coverageId=\d+/, "coverageId=999")}`);
    await page.getByTestId("limit-error").waitFor({ timeout: 30_000 });
    t.match(await textOf(page, "limit-error"), /coverageId: .+/, "a panel names the input the API refused");
    t.match(await textOf(page, "group-problems"), /coverage 999/, "and the sidebar too");
    const withType = /organizationType=/.test(before)
      ? before.replace(/organizationType=[^&]+/, "organizationType=XYZ")
      : `${before}&organizationType=XYZ`;
    await page.goto(`${base}/console/${withType}`);
    await page.getByTestId("empty-group").waitFor({ timeout: 30_000 });
    t.match(await textOf(page, "empty-group-unknown"), /organization type XYZ/, "an empty group says which id made it");
    await page.goto(`${base}/console/${before.replace(/companyId=\d+/, "companyId=abc")}`);
    await page.getByTestId("company-error").waitFor({ timeout: 30_000 });
    t.match(await textOf(page, "company-error"), /“abc” is not a company id/, "a company id that is none");
    await page.goto(`${base}/console/${before.replace(/exposureRangeLow=[\d.]+/, "exposureRangeLow=-5")}`);
    await page.getByTestId("exposure-low-note").filter({ hasText: "An amount" }).waitFor({ timeout: 30_000 });
    t.equal(await page.getByTestId("exposure-low").getAttribute("aria-invalid"), "true", "-5 is marked in its field");
  });

  // A link's amounts are read as typed ones: 2M, and an unreadable one is marked in its field.
  await t.test("item 8: amounts in a link", async (t) => {
    await page.goto(`${base}/console/${before.replace(/limit=\d+/, "limit=2M")}`);
    await page.getByTestId("client-limit-note").filter({ hasText: "$2,000,000" }).waitFor({ timeout: 30_000 });
    t.equal(await page.getByTestId("invalid-group").count(), 0, "2M from a link is no invalid input");
    await page.goto(`${base}/console/${before.replace(/limit=\d+/, "limit=abc")}`);
    await page.getByTestId("client-limit-note").filter({ hasText: "An amount" }).waitFor({ timeout: 30_000 });
    t.equal(await page.getByTestId("client-limit").getAttribute("aria-invalid"), "true", "abc is marked in its field");
  });

  // Thin trend periods, on a real group: the client's own revenues, narrowly, in 3-month periods.
  await t.test("item 2: trend periods on few programs are marked, and never headline a change", async (t) => {
    const query = new URLSearchParams(before);
    const revenues = 2 * Number(query.get("exposureRangeLow"));
    const trendOf = async (group: URLSearchParams) => {
      const asked = new URLSearchParams(group);
      for (const name of ["companyId", "limit", "premium", "retention"]) asked.delete(name);
      asked.set("periodMonths", "3");
      asked.set("periods", "12");
      const response = await fetch(`${base}${settings.apiBase}/trend/getmarkettrend?${asked}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { periods: ApiPeriod[] }).periods;
    };
    // The widest of these ranges with a period of 1 to 4 programs (the data set is seeded: the same each run).
    let periods: ApiPeriod[] = [];
    for (const spread of [0.5, 0.3, 0.2, 0.1, 0.05]) {
      query.set("exposureRangeLow", String(Math.round(revenues * (1 - spread))));
      query.set("exposureRangeHigh", String(Math.round(revenues * (1 + spread))));
      periods = await trendOf(query);
      if (periods.some((p) => p.programCount !== null && p.programCount > 0 && p.programCount < 5)) break;
    }
    const thin = periods.filter((p) => p.programCount !== null && p.programCount < 5).map((p) => p.periodEnd);
    t.ok(thin.length > 0, `a group with periods on fewer than 5 programs: ${thin.join(", ")}`);
    query.set("periodMonths", "3");
    await page.goto(`${base}/console/?${query}`);
    await waitForFigures(page);
    await page.getByTestId("trend-row").first().waitFor({ state: "attached", timeout: 30_000 });

    const chart = await page.locator('[data-testid="trend-chart"] .chart-canvas').evaluate((element) => {
      interface Chart {
        getOption(): {
          xAxis: { data: string[] }[];
          series: { name: string; data: (number | null | { value: number | null; symbol?: string })[] }[];
        };
      }
      const option = (element as unknown as { chart: Chart }).chart.getOption();
      const median = option.series.find((s) => s.name === "RPM median")!;
      return {
        labels: option.xAxis.at(-1)!.data,
        hollow: median.data.map((d) => d !== null && typeof d === "object" && d.symbol === "emptyCircle"),
      };
    });
    const oldestFirst = [...periods].reverse();
    t.same(
      chart.hollow,
      oldestFirst.map((p) => thin.includes(p.periodEnd)),
      "the chart: a hollow point for each thin period, and only for those",
    );
    oldestFirst.forEach((p, i) => {
      if (thin.includes(p.periodEnd))
        t.match(
          chart.labels[i],
          p.programCount === 0 ? "(no programs)" : `(${p.programCount} prog.)`,
          `the chart's label of ${p.periodEnd} says how few`,
        );
    });
    const rows = await shownPeriods(page);
    t.same(
      rows.filter((row) => "trend-thin" in row.cells).map((row) => row.end),
      oldestFirst.filter((p) => thin.includes(p.periodEnd)).map((p) => p.periodEnd),
      "the table marks the same periods",
    );
    const sentence = await textOf(page, "trend-sentence");
    t.equal(
      sentence,
      trendHeadline(periods as unknown as TrendPeriod[], 5),
      "the headline, as the API's periods give it",
    );
    const [newest, previous] = periods.filter((p) => !p.withheld);
    if (thin.includes(newest!.periodEnd) || thin.includes(previous!.periodEnd))
      t.notMatch(sentence, /%/, "no change headlined from or to a thin period");
    const download = page.waitForEvent("download");
    await page.getByTestId("trend-csv").click();
    const csv = (await readFile((await (await download).path())!, "utf8")).split("\r\n");
    t.same(
      csv.filter((line) => /,yes: (read with care|no programs)$/.test(line)).map((line) => line.split(",")[1]),
      oldestFirst.filter((p) => thin.includes(p.periodEnd)).map((p) => p.periodEnd),
      "the CSV marks them too",
    );

    // Their two-line labels: laid out at the text's real height (a CJK-less Chromium measured
    // 4 px and drew the lines over each other), and no label over another.
    for (const [where, width] of [
      ["screen", 1280],
      ["phone", 375],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(400);
      const trend = (await drawnCharts(page)).find((c) => c.testId === "trend-chart")!;
      const short = trend.texts.filter((text) => text.height < 9);
      t.same(short, [], `${where}: every label laid out at least 9 px tall (10 px type)`);
      t.same(overlapping(trend.texts), [], `${where}: no label over another`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate("dispatchEvent(new Event('beforeprint'))");
    const printed = (await drawnCharts(page)).find((c) => c.testId === "trend-chart")!;
    t.same(overlapping(printed.texts), [], "paper: no label over another");
    await page.evaluate("dispatchEvent(new Event('afterprint'))");
  });

  t.same(
    problems.filter((p) => !/status of 4\d\d/.test(p)),
    [],
    "no page errors",
  );
});
