// `npm run screenshot`: regenerates docs/console.png, the console as docs/console.md shows it,
// and docs/console-report.png, the first page of its printed report,
// from a generated data set, the demo user and the busiest company, in Debian's
// Chromium. A tap file outside the suite (not *.test.ts), so it reuses the suite's stack
// and database set-up: `npm run screenshot` runs it through test/run-suite.ts.
import t from "tap";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { consolePaths, ensureConsoleBuilt } from "../../src/console/console-build.js";
import { startBrowser } from "../helpers/browser.js";
import { buildGroupFromCompany, busiestCompany, openSignedIn, startConsoleStack } from "./helpers/console-stack.js";

const OUTPUT = path.resolve("docs/console.png");
/** The printed report's first page, rendered from Chromium's PDF by poppler's pdftoppm. */
const REPORT = path.resolve("docs/console-report");

t.test("docs/console.png", async (t) => {
  const paths = consolePaths();
  await ensureConsoleBuilt(paths);
  const { base, knex } = await startConsoleStack(t, paths.outDir, {
    data: { companies: 2_000, programs: 40_000, losses: 4_000, seed: "console-screenshot" },
  });
  const browser = await startBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  await openSignedIn(page, `${base}/console/`, t);
  await buildGroupFromCompany(page, await busiestCompany(knex));
  // As a broker would see it: nothing focused, the page and its builder at their tops,
  // the charts' entry animations over.
  await page.evaluate(
    "document.activeElement?.blur(); window.scrollTo(0, 0); document.querySelectorAll('*').forEach((e) => { e.scrollTop = 0; })",
  );
  await page.waitForTimeout(1_500);
  await page.screenshot({ path: OUTPUT, fullPage: true });
  t.pass(`wrote ${path.relative(process.cwd(), OUTPUT)}`);
  const dir = await mkdtemp(path.join(tmpdir(), "cpb-report-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, "report.pdf"), await page.pdf({ format: "A4" }));
  await promisify(execFile)("pdftoppm", [
    "-r",
    "80",
    "-png",
    "-singlefile",
    "-f",
    "1",
    "-l",
    "1",
    path.join(dir, "report.pdf"),
    REPORT,
  ]);
  t.pass(`wrote ${path.relative(process.cwd(), REPORT)}.png`);
});
