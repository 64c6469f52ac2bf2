import { spawn } from "node:child_process";
import { appendFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { startRssSampler } from "../bench/peer/process-rss.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "./helpers/temp-dir.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Both imports run with the same fixed heap: how far V8 lets the heap grow before it
 * collects differs between Node versions (on Node 24 the larger import peaked 40-75 MiB
 * higher without these flags, under them 5-20 MiB, as on Node 20), and the test is about
 * the import, not the collector's pace. An import that held its files in memory would
 * not fit in this heap at all.
 */
const FIXED_HEAP = ["--max-old-space-size=128", "--max-semi-space-size=16"];

/** `cpb import ARGS` as its own process; its exit code and peak resident memory. */
async function importMeasured(
  url: string,
  args: string[],
): Promise<{ code: number | null; peakMiB: number; output: string }> {
  const child = spawn(process.execPath, [...FIXED_HEAP, "bin/cpb.js", "import", ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const rss = startRssSampler(child.pid!, 20);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  rss.stop();
  return { code, peakMiB: rss.peak() / 2 ** 20, output };
}

t.test("an import's memory does not grow with the files: four times the rows, about the same peak", async (t) => {
  const small = await createTempDir(t, "cpb-memory-small-");
  const large = await createTempDir(t, "cpb-memory-large-");
  await generateDataset(small, {
    companies: 5_000,
    programs: 100_000,
    losses: 10_000,
    seed: "memory",
    asOf: "2026-11-22",
  });
  await generateDataset(large, {
    companies: 20_000,
    programs: 400_000,
    losses: 40_000,
    seed: "memory",
    asOf: "2026-11-22",
  });
  // A refused field on the last line: the direct road reads all of programs.csv, declines,
  // and the exact road stages and checks every file: both roads run in both imports.
  await appendFile(path.join(small, "programs.csv"), "100001,1,1,1,2026-01-01,-5,,,\n");
  await appendFile(path.join(large, "programs.csv"), "400001,1,1,1,2026-01-01,-5,,,\n");

  const first = await importMeasured((await createTestDatabase(t)).url, ["--skip-invalid", small]);
  const second = await importMeasured((await createTestDatabase(t)).url, ["--skip-invalid", large]);
  t.equal(first.code, 0, first.output);
  t.equal(second.code, 0, second.output);
  t.match(second.output, /programs\.csv: 400001 read, 400000 inserted, 0 updated, 1 rejected/);
  t.comment(
    `peak RSS: ${first.peakMiB.toFixed(0)} MiB for 115,000 rows, ${second.peakMiB.toFixed(0)} MiB for 460,000 rows`,
  );
  // The large folder's files hold 27 MB more CSV than the small one's: in memory, as
  // strings, rows and COPY text, that would be well over 100 MiB more.
  t.ok(second.peakMiB - first.peakMiB < 48, `the peak grew by ${(second.peakMiB - first.peakMiB).toFixed(0)} MiB`);
});
