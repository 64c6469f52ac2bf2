import type { Knex } from "knex";
// The loss experience panel (issue 52, item 4), in Debian's Chromium: for the peer group in
// the page's URL, every cell of the table (each year's programs, losses per 100 programs,
// losses, $0 losses apart from the paid ones, the paid losses' quartiles, median, average
// and largest, and the paid losses above the client's limit and the broker's other limits,
// side by side), the total row, the CSV and the printed report are the API's own answer
// (asked here, independently). Other limits typed are kept in the link (another browser
// opens them, back returns to the last ones) and change the counts above them; the years
// switch is in the link. Under DISCLOSURE_RULE=standard withheld years are gaps with their
// reason, never zeros, and their losses stay; a total withheld for the years' sake says so,
// not their condition. A group with no program in its window still shows its years.
import t, { type Test } from "tap";
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { SETTLE_MS } from "../../src/console/web/src/state/settle.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { startBrowser } from "../helpers/browser.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import {
  CLIENT_PROGRAM,
  buildGroupFromCompany,
  busiestCompany,
  openSignedIn,
  startConsoleStack,
  textOf,
  waitForFigures,
  watchProblems,
} from "./helpers/console-stack.js";
import {
  expectedLossCells,
  shownLimitHeadings,
  shownLossRows,
  totalWithheldWords,
  type ApiLossExperience,
  withheldReason,
} from "./helpers/loss-table.js";
import { pdfText } from "./helpers/pdf-pages.js";

/** More losses than the other console tests' data: a group's years then hold paid and $0 losses both. */
const DATA = { companies: 300, programs: 6_000, losses: 3_000, seed: "console-losses" };
/** CONSOLE_THIN_GROUP_PROGRAMS of the console stack (helpers/console-stack.ts). */
const THIN_PROGRAMS = 5;
const GROUP_NAMES = [
  "naics",
  "coverageId",
  "lineOfBusinessId",
  "exposureType",
  "exposureRangeLow",
  "exposureRangeHigh",
  "organizationType",
];

/**
 * The page's peer group as the loss experience's query: the group's own names from the
 * URL, its years (5 when the link leaves them out) and the client's limit, then the others.
 */
function lossQuery(page: Page): URLSearchParams {
  const url = new URL(page.url()).searchParams;
  const query = new URLSearchParams();
  for (const name of GROUP_NAMES) if (url.has(name)) query.set(name, url.get(name)!);
  query.set("years", url.get("years") ?? "5");
  const limits = [url.get("limit") ?? "", ...(url.get("otherLimits") ?? "").split(",")].filter((l) => l !== "");
  if (limits.length) query.set("limits", limits.join(","));
  return query;
}

type Stack = Awaited<ReturnType<typeof startConsoleStack>>;

/** The API's own loss experience for the page's group, asked with a token of the test's own, as any other client. */
async function apiOf(t: Test, stack: Stack) {
  const token = await fetchAccessToken({
    issuer: stack.issuer,
    ...DEV_CLIENT,
    audience: DEV_AUDIENCE,
    scope: DEV_SCOPE,
  });
  return async (page: Page): Promise<ApiLossExperience> => {
    const response = await fetch(
      `${stack.base}${stack.settings.apiBase}/lossdetails/getlossexperience?${lossQuery(page)}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    t.equal(response.status, 200, "the API answers the loss experience");
    return (await response.json()) as ApiLossExperience;
  };
}

/** Every cell of the table, the total's and the limit headings against the API's answer. */
async function checkTable(t: Test, page: Page, api: ApiLossExperience, limitNames: string[], what: string) {
  const shown = await shownLossRows(page);
  const panel = { panel: await page.getByTestId("loss-experience-figure").innerText() };
  t.same(
    shown.map((row) => row.year),
    [...api.years.map((y) => String(y.year)), "total"],
    `${what}: a row a year, oldest first as the API answers, then the total`,
    panel,
  );
  t.same(
    shown.map((row) => row.cells),
    [
      ...api.years.map((f) => expectedLossCells(f, THIN_PROGRAMS)),
      expectedLossCells(api.total, THIN_PROGRAMS, true, totalWithheldWords(api)),
    ],
    `${what}: every cell is the API's`,
    panel,
  );
  t.same(
    await shownLimitHeadings(page),
    limitNames.map((name) => `Paid losses above ${name}`),
    `${what}: a column per limit, in the order asked, the client's first`,
  );
  const { total } = api;
  t.equal(
    await textOf(page, "loss-experience-programs"),
    total.programCount === null ? "withheld" : String(total.programCount),
    `${what}: the panel's program count is the total's`,
  );
  t.equal(
    await textOf(page, "loss-experience-losses"),
    String(total.lossCount),
    `${what}: its loss count is the total's`,
  );
}

/** The panel's CSV, downloaded: its file name, its text (after the byte order mark), its lines. */
async function downloadCsv(t: Test, page: Page) {
  const download = page.waitForEvent("download");
  await page.getByTestId("loss-experience-csv").click();
  const file = await download;
  const text = await readFile((await file.path())!, "utf8");
  t.ok(text.startsWith("\uFEFF"), "a UTF-8 byte order mark first, for Excel on Windows");
  return {
    name: file.suggestedFilename(),
    rows: parse(text.slice(1), { relax_column_count: true, skip_empty_lines: false }) as string[][],
  };
}

/** The CSV's table, by column name: a row a year, then the total, as the API answers them. */
function checkCsvTable(t: Test, rows: string[][], api: ApiLossExperience, limitNames: string[]) {
  const headAt = rows.findIndex((row) => row[0] === "Year");
  const header = rows[headAt]!;
  const table = rows.slice(headAt + 1).map((row) => Object.fromEntries(row.map((cell, i) => [header[i]!, cell])));
  const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
  const expected = [...api.years, api.total].map((f, i) => {
    const row: Record<string, string> = {
      Year: i < api.years.length ? String(api.years[i]!.year) : `Total ${api.total.fromYear}-${api.total.toYear}`,
      Programs: text(f.programCount),
      "Losses per 100 programs": text(f.frequencyPer100),
      "Losses ($0 included)": text(f.lossCount),
      "Losses closed at $0": text(f.lossCount - f.paidLossCount),
      "Paid losses": text(f.paidLossCount),
      "Paid loss first quartile": text(f.severity?.firstQuartile),
      "Paid loss median": text(f.severity?.median),
      "Paid loss third quartile": text(f.severity?.thirdQuartile),
      "Paid loss average": text(f.severity?.average),
      "Largest paid loss": text(f.severity?.max),
    };
    f.exceeding.forEach((entry, j) => {
      row[`Paid losses above ${limitNames[j]}`] = text(entry.count);
      row[`Paid losses above ${limitNames[j]}, % of paid losses`] = text(entry.percent);
    });
    row.Withheld = f.withheld ? withheldReason(f.withheld) : "";
    return row;
  });
  t.same(table, expected, "the CSV: a row a year and the total, every column the API's, withheld ones empty");
}

t.test("every cell, the other limits in the link, the years, the CSV and the printed report", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const stack = await startConsoleStack(t, paths.outDir, { data: DATA });
  const lossesOf = await apiOf(t, stack);
  const browser = await startBrowser(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await openSignedIn(page, `${stack.base}/console/`, t);
  const company = await busiestCompany(stack.knex);
  await buildGroupFromCompany(page, company);

  // The client's limit alone: 5 years by default, left out of the link.
  t.notOk(new URL(page.url()).searchParams.has("years"), "5 years is the default, left out of the link");
  t.ok(await page.getByTestId("losses-years-5").isChecked(), "and chosen");
  let api = await lossesOf(page);
  t.equal(api.years.length, 5, "the API answers 5 years");
  await checkTable(t, page, api, ["$5M (the client's limit)"], "the client's limit");
  const clientColumn = (await shownLossRows(page)).map((row) => row.cells["losses-above-0"]);
  t.ok(
    api.years.some((y) => y.lossCount > y.paidLossCount && y.paidLossCount > 0),
    "some year has $0 losses beside paid ones: they are shown apart (their column), not in the severity",
  );
  const sentence = await textOf(page, "loss-experience-sentence");
  const { total } = api;
  t.ok(
    sentence.startsWith(`${total.fromYear}–${total.toYear}: ${total.frequencyPer100} losses per 100 programs`),
    `the headline reads the total: ${sentence}`,
  );
  t.ok(
    sentence.includes(
      `Above the client's limit of $5,000,000: ${total.exceeding[0]!.count} of the ${total.paidLossCount} paid losses (${total.exceeding[0]!.percent}%)`,
    ),
    "and the paid losses above the client's limit",
  );

  // Two other limits, typed as brokers type them: in the link, in the order typed.
  await page.getByLabel("Other limit 1").fill("10M");
  await page.getByLabel("Other limit 1").press("Tab");
  await page.waitForURL((url) => url.searchParams.get("otherLimits") === "10000000");
  // Changes of the same input within SETTLE_MS amend one history entry (use-peer-group.ts): these are two.
  await page.waitForTimeout(SETTLE_MS + 100);
  await page.getByLabel("Other limit 2").fill("250K");
  await page.getByLabel("Other limit 2").press("Tab");
  await page.waitForURL((url) => url.searchParams.get("otherLimits") === "10000000,250000");
  await waitForFigures(page);
  t.equal(await textOf(page, "other-limit-2-note"), "$250,000", "the amount read back as money");
  api = await lossesOf(page);
  const threeLimits = ["$5M (the client's limit)", "$10M", "$250K"];
  await checkTable(t, page, api, threeLimits, "three limits");
  const above = api.total.exceeding.map((e) => e.count);
  t.ok(
    above[2]! > above[0]! && above[0]! >= above[1]!,
    `the counts follow the limits: above $250K ${above[2]}, above $5M ${above[0]}, above $10M ${above[1]}`,
  );
  t.same(
    (await shownLossRows(page)).map((row) => row.cells["losses-above-0"]),
    clientColumn,
    "the client's column is as it was before the others were typed",
  );

  // The link keeps them: a colleague's browser opens the same columns and counts.
  const shared = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await openSignedIn(shared, page.url(), t);
  await waitForFigures(shared);
  t.equal(await shared.getByLabel("Other limit 1").inputValue(), "$10,000,000", "the link's first other limit");
  t.equal(await shared.getByLabel("Other limit 2").inputValue(), "$250,000", "and its second");
  await checkTable(t, shared, api, threeLimits, "the link in another browser");

  // Back: the one other limit of the entry before.
  await page.goBack();
  await page.waitForURL((url) => url.searchParams.get("otherLimits") === "10000000");
  await waitForFigures(page);
  t.equal(await page.getByLabel("Other limit 2").inputValue(), "", "back: the second other limit is gone");
  await checkTable(t, page, await lossesOf(page), ["$5M (the client's limit)", "$10M"], "back");
  await page.goForward();
  await page.waitForURL((url) => url.searchParams.get("otherLimits") === "10000000,250000");
  await waitForFigures(page);

  // 10 and 20 years: the switch is the link's; years before the programs begin have losses but no rate.
  for (const years of [10, 20]) {
    await page.waitForTimeout(SETTLE_MS + 100);
    await page.getByTestId(`losses-years-${years}`).check();
    await page.waitForURL((url) => url.searchParams.get("years") === String(years));
    await waitForFigures(page);
    api = await lossesOf(page);
    t.equal(api.years.length, years, `the API answers ${years} years`);
    await checkTable(t, page, api, threeLimits, `${years} years`);
  }
  t.ok(
    api.years.some((y) => y.programCount === 0 && y.lossCount > 0),
    "some year has losses and no program: its rate is a dash, not a number",
  );

  // The CSV: named and headed like the other figures', with the limits and whose they are.
  const csv = await downloadCsv(t, page);
  t.match(
    csv.name,
    /^loss-experience-20y_[a-z0-9-]+_[a-z0-9-]+_data-v1_\d{4}-\d{2}-\d{2}\.csv$/,
    "named after the figure and its years, client, coverage, data version and date",
  );
  const blank = csv.rows.findIndex((row) => row.length === 1 && row[0] === "");
  t.same(
    csv.rows.slice(0, blank).map((row) => row[0]),
    ["Figure", "Client", "Coverage", "Peer group", "Data version", "Date"],
    "the header lines every figure's CSV has",
  );
  t.ok(csv.rows[1]![1]!.includes(`${company.name} (company ${company.id}`), "whose figures: the client, with its id");
  t.match(
    csv.rows[3]![1]!,
    new RegExp(
      `; programs effective and losses dated in ${api.total.fromYear} to ${api.total.toYear}, by calendar year$`,
    ),
    "its years in place of the window it does not use",
  );
  t.same(
    csv.rows.slice(blank + 1, blank + 4),
    [
      ["Client limit", CLIENT_PROGRAM.Limit],
      ["Other limit", "10000000"],
      ["Other limit", "250000"],
    ],
    "the client's limit and the other limits",
  );
  checkCsvTable(t, csv.rows, api, ["$5,000,000 (the client's limit)", "$10,000,000", "$250,000"]);

  // The printed report: the table's rows (less the quartiles) in its text, a row a line.
  const dir = await createTempDir(t, "cpb-losses-print-");
  const raw = await pdfText(await page.pdf({ format: "A4" }), dir, "losses");
  const lines = raw.split("\n");
  t.ok(raw.includes("Loss experience"), "the report has the panel");
  for (const [label, f] of [...api.years.map((y) => [String(y.year), y] as const), ["All years", api.total] as const]) {
    const cells = expectedLossCells(
      f,
      THIN_PROGRAMS,
      f === api.total,
      f === api.total ? totalWithheldWords(api) : null,
    );
    const printed = [
      f.withheld ? "Withheld:" : null,
      // The star is printed; the words a screen reader hears instead are not.
      cells["losses-programs"]?.replace(" (few programs)", ""),
      cells["losses-frequency"],
      cells["losses-count"],
      cells["losses-zero"],
      cells["losses-paid"],
      ...f.exceeding.map((_, i) => cells[`losses-above-${i}`]),
      cells["losses-median"],
      cells["losses-average"],
      cells["losses-max"],
    ].filter((cell): cell is string => cell !== null && cell !== undefined);
    const inRow = (line: string) => {
      if (!line.trimStart().startsWith(label)) return false;
      let at = line.indexOf(label) + label.length;
      for (const cell of printed) {
        at = line.indexOf(cell, at);
        if (at < 0) return false;
        at += cell.length;
      }
      return true;
    };
    t.ok(lines.some(inRow), `printed: the row of ${label} holds ${printed.join(" | ")}`);
  }
  t.notOk(raw.includes("Other limit 1"), "the fields are not printed; the columns say the limits");

  // A phone: the table scrolls in its box, never the page.
  await page.setViewportSize({ width: 375, height: 812 });
  await page
    .waitForFunction("document.documentElement.scrollWidth <= document.documentElement.clientWidth", null, {
      timeout: 10_000,
    })
    .catch(() => {});
  t.equal(
    await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"),
    0,
    "no horizontal scroll of the page at 375 px",
  );
  if (process.env.KEEP_LOSS_SHOTS) {
    await page.getByTestId("loss-experience-figure").screenshot({ path: `${process.env.KEEP_LOSS_SHOTS}/phone.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId("loss-experience-figure").screenshot({ path: `${process.env.KEEP_LOSS_SHOTS}/desktop.png` });
    await import("node:fs/promises").then(async (fs) =>
      fs.writeFile(`${process.env.KEEP_LOSS_SHOTS}/report.pdf`, await page.pdf({ format: "A4" })),
    );
  }
  t.same(problems, [], "no page errors, nothing the policy blocks");
});

t.test("standard rule: withheld years are gaps with their reason, never zeros; their losses stay", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const stack = await startConsoleStack(t, paths.outDir, { data: DATA, disclosure: STANDARD_RULE });
  const lossesOf = await apiOf(t, stack);
  const browser = await startBrowser(t);
  const page = await (
    await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  ).newPage();
  const problems = watchProblems(page);
  // A sector's broad group: enough companies in its recent years to pass the rule, none in the years before its programs begin.
  const group = await broadestSectorGroup(stack.knex);
  await openSignedIn(page, `${stack.base}/console/?${group}`, t);
  await waitForFigures(page);
  const five = await lossesOf(page);
  t.ok(
    five.years.some((y) => !y.withheld),
    `the last 5 years: some year's programs pass the rule (withheld: ${five.years
      .filter((y) => y.withheld)
      .map((y) => y.year)
      .join(", ")})`,
  );
  await checkTable(t, page, five, ["$5M (the client's limit)"], "standard rule, 5 years");
  await page.getByTestId("losses-years-20").check();
  await page.waitForURL((url) => url.searchParams.get("years") === "20");
  await waitForFigures(page);

  const api = await lossesOf(page);
  const withheld = api.years.filter((y) => y.withheld);
  t.ok(
    withheld.length > 0 && withheld.length < 20,
    `the API withholds ${withheld.length} of the 20 years, and answers the others`,
  );
  t.ok(
    withheld.some((y) => y.lossCount > 0),
    "some withheld year has losses: they stay, only its programs are withheld",
  );
  await checkTable(t, page, api, ["$5M (the client's limit)"], "standard rule");
  const rows = await shownLossRows(page);
  for (const year of withheld) {
    const cells = rows.find((row) => row.year === String(year.year))!.cells;
    t.notOk(
      "losses-programs" in cells || "losses-frequency" in cells,
      `${year.year}: no program count or rate, not even 0, but "${cells["losses-withheld"]}"`,
    );
  }
  t.equal(api.total.programCount, null, "a year withheld: the total's programs are withheld too (SEMANTICS.md 15)");
  // Withheld with a year, the total says why: its own condition only when the years together break the rule.
  const words = totalWithheldWords(api)!;
  const oldest = withheld[0]!.withheld!;
  const repeats =
    oldest.condition === api.total.withheld!.condition && oldest.threshold === api.total.withheld!.threshold;
  t.ok(
    (await textOf(page, "loss-experience-sentence")).includes(
      `the programs are withheld (${words}), so no rate per 100 programs`,
    ),
    `the headline says why (${words}), and gives no rate`,
  );
  t.match(
    await textOf(page, "loss-experience-figure"),
    repeats
      ? /the programs of \d+ of the years are withheld, and so are the total's, which would reveal them/
      : new RegExp(
          `all the years' programs together break the rule \\(${withheldReason(api.total.withheld!)}\\), and those of ${withheld.length} of the years do too\\.`,
        ),
    "and so does the counts' note",
  );

  const csv = await downloadCsv(t, page);
  checkCsvTable(t, csv.rows, api, ["$5,000,000 (the client's limit)"]);
  if (process.env.KEEP_LOSS_SHOTS)
    await page
      .getByTestId("loss-experience-figure")
      .screenshot({ path: `${process.env.KEEP_LOSS_SHOTS}/standard.png` });
  // The figures the rule refuses answer 400, which the browser logs; nothing else.
  t.same(
    problems.filter((p) => !/status of 400/.test(p)),
    [],
    "no page errors, nothing the policy blocks",
  );
});

t.test("an empty window: the group's years of programs and losses still show, below the empty group", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  // The data ends today; the service's as-of date is two years and more on. No group then has a
  // program in the 24-month window, yet the last 5 calendar years still hold the data's last 3.
  const year = new Date().getUTCFullYear();
  const stack = await startConsoleStack(t, paths.outDir, { data: DATA, asOf: `${year + 3}-01-15` });
  const lossesOf = await apiOf(t, stack);
  const browser = await startBrowser(t);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const problems = watchProblems(page);
  const group = await broadestSectorGroup(stack.knex);
  await openSignedIn(page, `${stack.base}/console/?${group}`, t);
  await page.getByTestId("empty-group").waitFor({ timeout: 30_000 });
  await waitForFigures(page);

  const api = await lossesOf(page);
  t.ok(
    api.total.programCount! > 0 && api.total.lossCount > 0,
    `the API answers years of programs (${api.total.programCount}) and losses (${api.total.lossCount}) for it`,
  );
  await checkTable(t, page, api, ["$5M (the client's limit)"], "an empty window");
  const order = await page
    .locator('[data-testid="empty-group"], [data-testid="loss-experience-figure"]')
    .evaluateAll((elements) => elements.map((e) => (e as unknown as { dataset: { testid: string } }).dataset.testid));
  t.same(order, ["empty-group", "loss-experience-figure"], "the panel below the empty group's message");
  t.equal(await page.getByTestId("trend-figure").count(), 0, "the trend, which reads the newest period, is left out");
  t.equal(await page.getByTestId("limit-figure").count(), 0, "and so are the window's figures");
  t.same(
    problems.filter((p) => !/status of 4\d\d/.test(p)),
    [],
    "no page errors",
  );
});

/** The console link of the sector and coverage with the most programs, every exposure, the client's limit. */
async function broadestSectorGroup(knex: Knex): Promise<URLSearchParams> {
  const [sector] = (await knex("programs as p")
    .join("companies as c", "c.company_id", "p.company_id")
    .whereNotNull("c.naics2")
    .whereNotNull("c.revenues")
    .groupBy("c.naics2", "p.coverage_id")
    .orderByRaw("count(*) desc, c.naics2, p.coverage_id")
    .limit(1)
    .select("c.naics2", "p.coverage_id")) as { naics2: number; coverage_id: number }[];
  return new URLSearchParams({
    naics: String(sector!.naics2),
    coverageId: String(sector!.coverage_id),
    exposureRangeLow: "0",
    exposureRangeHigh: "1000000000000",
    limit: CLIENT_PROGRAM.Limit,
  });
}
