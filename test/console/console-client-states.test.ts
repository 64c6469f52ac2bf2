// Issue 27, items 1, 3, 4 and 6, in Chromium as a broker meets them: another client's
// amounts never stay on the report (a new company, an emptied box, a new coverage, an
// unknown id); limit adequacy's axis has a $0 row and whole-decade ends with no label
// over another; an empty group says so, NAICS codes are checked as added, a reversed range
// marks both fields, a new exposure type does not keep a revenue range; amounts take K/M/B,
// the search finds any word with each hit's sector and size, and arrowing through a select
// adds one history entry.
import t from "tap";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { startBrowser } from "../helpers/browser.js";
import { drawnCharts, overlapping } from "./helpers/chart-labels.js";
import {
  buildGroupFromCompany,
  busiestCompany,
  openSignedIn,
  startConsoleStack,
  waitForFigures,
  watchProblems,
  E2E_DATA,
  textOf,
  urlParam,
} from "./helpers/console-stack.js";

t.test("one client, honest states, the smaller things", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const { base, knex } = await startConsoleStack(t, paths.outDir, { data: E2E_DATA });
  const first = await busiestCompany(knex);
  // Another company whose name has a second word to search by.
  const [other] = (await knex("companies")
    .whereNot("company_id", first.id)
    .whereNotNull("naics2")
    .whereNotNull("revenues")
    .whereNotNull("employees")
    .whereRaw("company_name like '% %'")
    .orderBy("company_id")
    .limit(1)
    .select("company_id", "company_name")) as { company_id: string; company_name: string }[];
  const second = { id: other!.company_id, name: other!.company_name };
  const browser = await startBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watchProblems(page);
  await openSignedIn(page, `${base}/console/`, t);
  await buildGroupFromCompany(page, first);

  // Item 3: limit adequacy's axis.
  await page.evaluate("dispatchEvent(new Event('beforeprint'))");
  const adequacy = (await drawnCharts(page)).find((c) => c.testId === "adequacy-chart")!;
  await page.evaluate("dispatchEvent(new Event('afterprint'))");
  const labels = adequacy.texts.map((x) => x.text);
  t.ok(labels.includes("$0"), "the $0 cases have a $0 row");
  t.notOk(labels.includes("$1") || labels.includes("$0.7"), "no $1 or $0.7 tick standing for $0");
  const money = labels.filter((l) => /^\$[\d.]+[KMB]?$/.test(l) && l !== "$0");
  t.ok(
    money.length >= 2 && money.every((l) => /^\$(1|10|100)[KMB]?$/.test(l)),
    `ticks at whole powers of ten: ${money.join(" ")}`,
  );
  t.same(overlapping(adequacy.texts), [], "no label over another (legend, axis name, ticks, limits)");

  // Item 6: any word of the name, each hit with its sector and size.
  const word = second.name.split(" ").at(-1)!;
  await page.getByTestId("company-search").fill(word);
  const option = page.locator(`[data-testid="company-option"][data-company-id="${second.id}"]`);
  await option.waitFor({ timeout: 15_000 });
  await option.getByTestId("company-option-meta").filter({ hasText: "NAICS" }).waitFor({ timeout: 15_000 });
  t.match(
    await option.getByTestId("company-option-meta").innerText(),
    /^NAICS \d+ .* · (revenues \$|[\d,]+ employees)/,
    `"${word}" finds ${second.name}, with its sector and size`,
  );

  // Item 1: another company clears the first one's amounts, and says whose they were.
  await option.click();
  await page.waitForURL((url) => url.searchParams.get("companyId") === second.id, { timeout: 15_000 });
  t.equal(urlParam(page, "limit"), null, "the first client's limit is gone from the link");
  t.equal(urlParam(page, "premium"), null, "and its premium");
  t.match(
    await textOf(page, "client-amounts-notice"),
    new RegExp(`Cleared ${first.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}'s limit`),
    "the notice names the old client",
  );
  await page.getByTestId("report-summary").filter({ hasText: second.name }).waitFor();
  t.notMatch(await textOf(page, "report-summary"), /\$5,000,000/, "no old amount on the new client's report");

  // Item 6: amounts with suffixes.
  await page.getByTestId("client-limit").fill("5M");
  await page.getByTestId("client-limit").press("Tab");
  await page.waitForURL((url) => url.searchParams.get("limit") === "5000000");
  t.pass("5M is 5000000");
  await page.getByTestId("client-premium").fill("10.5k");
  await page.getByTestId("client-premium").press("Tab");
  await page.waitForURL((url) => url.searchParams.get("premium") === "10500");
  t.pass("10.5k is 10500");

  // Item 1: a coverage change says the amounts were entered for the old coverage.
  const coverage = page.locator("#coverage-id");
  const before = await coverage.inputValue();
  const values = await coverage
    .locator("option")
    .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value).filter((v) => v !== ""));
  const next = values.find((v) => v !== before)!;
  await coverage.selectOption(next);
  await page.getByTestId("amounts-coverage-warning").waitFor();
  t.match(
    await textOf(page, "amounts-coverage-warning"),
    /These amounts were entered for .+, not .+\./,
    "the builder says so",
  );
  t.match(await textOf(page, "report-amounts-warning"), /were entered for/, "and so does the report");
  t.equal(urlParam(page, "amountsCoverageId"), before, "in the link too");

  // Item 6: arrowing through the coverage select is one history entry, not one per option.
  const length = (await page.evaluate("history.length")) as number;
  await coverage.focus();
  // Down, not up: up would reach the "Choose a coverage" placeholder and empty the group.
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await page.waitForTimeout(300);
  t.ok(((await page.evaluate("history.length")) as number) - length <= 1, "at most one new history entry");

  // Item 4: another exposure type does not keep a revenue range as a head count.
  const revenueLow = urlParam(page, "exposureRangeLow");
  await page.locator("#exposure-type").selectOption("Employees");
  await page.waitForURL((url) => url.searchParams.get("exposureType") === "Employees");
  t.not(urlParam(page, "exposureRangeLow"), revenueLow, "the range follows the client's own employee count");

  // Item 4: low above high marks both fields, not the onboarding card.
  await page.getByTestId("exposure-high").fill("10");
  await page.getByTestId("exposure-high").press("Tab");
  await page.getByTestId("exposure-low").fill("20");
  await page.getByTestId("exposure-low").press("Tab");
  await page.getByTestId("invalid-group").waitFor();
  t.equal(await page.getByTestId("exposure-low").getAttribute("aria-invalid"), "true", "the low end is marked");
  t.equal(await page.getByTestId("exposure-high").getAttribute("aria-invalid"), "true", "and the high end");
  t.equal(await page.getByTestId("incomplete-group").count(), 0, "no onboarding card");

  // Item 4: a NAICS code the reference data does not have is refused as it is added.
  await page.getByTestId("naics-codes").fill("99");
  await page.getByRole("button", { name: "Add codes" }).click();
  t.match(
    await textOf(page, "naics-codes-note"),
    /Not a NAICS sector or subsector of the reference data: 99/,
    "99 is refused",
  );
  t.notMatch(urlParam(page, "naics") ?? "", /99/, "and not added");

  // Item 1: emptying the Company box ends the client.
  await page.getByTestId("company-search").fill("");
  await page.getByTestId("company-search").press("Tab");
  await page.waitForURL((url) => !url.searchParams.has("companyId"));
  t.equal(urlParam(page, "limit"), null, "its amounts go with it");

  // Item 4: an empty group says so; an unknown company id is an error in place.
  await page.goto(
    `${base}/console/?companyId=99999999&naics=52&coverageId=${before}&exposureRangeLow=1&exposureRangeHigh=2`,
  );
  await page.getByTestId("empty-group").waitFor({ timeout: 30_000 });
  await waitForFigures(page);
  t.notMatch(
    await textOf(page, "empty-group"),
    /To see them/,
    "issue 50: no advice about withheld figures there are none of",
  );
  t.equal(await page.getByTestId("thin-group-warning").count(), 0, "empty, not thin");
  t.notMatch(
    await textOf(page, "results"),
    /0th percentile|rest on 0 programs/,
    "no percentile sentences over nothing",
  );
  t.ok(await page.getByTestId("print-report").isDisabled(), "nothing to print");
  await page.getByTestId("company-error").waitFor();
  t.match(await textOf(page, "company-error"), /No company has the id 99999999/, "the unknown id, in place");
  t.notMatch(await textOf(page, "report-summary"), /Company 99999999/, "never named as a client");

  t.same(
    problems.filter((p) => !/status of 4\d\d/.test(p)),
    [],
    "no page errors",
  );
});
