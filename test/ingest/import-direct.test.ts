import type { Knex } from "knex";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { ImportRejectedError, importDataset, type ImportOptions } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";
import { createTempDir } from "./helpers/temp-dir.js";

/**
 * A first load or a --replace first copies each file straight into its table's
 * replacement and leaves the checks between rows to the replacements' keys, declining
 * at the first refused field or failing key. Whatever the folder, it must end exactly
 * as the import that stages and checks first: the same report, the same summary, the
 * same tables.
 */

type Folder = Map<string, string[]>;

async function readFolder(dir: string): Promise<Folder> {
  const folder: Folder = new Map();
  for (const file of ["coverages.csv", "lines_of_business.csv", "companies.csv", "programs.csv", "losses.csv"]) {
    folder.set(file, (await readFile(path.join(dir, file), "utf8")).trimEnd().split("\n"));
  }
  return folder;
}

async function writeFolder(dir: string, folder: Folder): Promise<void> {
  await rm(dir, { recursive: true, force: true }).then(() => import("node:fs/promises").then((fs) => fs.mkdir(dir)));
  for (const [file, lines] of folder) await writeFile(path.join(dir, file), `${lines.join("\n")}\n`);
}

/** Sets a column of a data line (a simple line: the files mutated here hold no quoted commas in these columns). */
function setField(lines: string[], line: number, column: string, value: string): void {
  const at = lines[0]!.split(",").indexOf(column);
  const fields = lines[line]!.split(",");
  fields[at] = value;
  lines[line] = fields.join(",");
}

const dataLine = (random: SeededRandom, lines: string[]) => 1 + random.int(lines.length - 1);

/** The ways a partner's folder goes wrong between rows, and one way a field does. */
const MUTATIONS: [string, (folder: Folder, random: SeededRandom) => void][] = [
  ["nothing", () => undefined],
  [
    "a repeated program id",
    (f, random) => {
      const p = f.get("programs.csv")!;
      p.push(p[dataLine(random, p)]!);
    },
  ],
  [
    "a repeated company id",
    (f, random) => {
      const c = f.get("companies.csv")!;
      c.push(c[dataLine(random, c)]!);
    },
  ],
  [
    "a program of no company",
    (f, random) => {
      const p = f.get("programs.csv")!;
      setField(p, dataLine(random, p), "company_id", "999999");
    },
  ],
  [
    "a loss of no company",
    (f, random) => {
      const l = f.get("losses.csv")!;
      setField(l, dataLine(random, l), "company_id", "888888");
    },
  ],
  [
    "a program's LOB of another coverage",
    (f, random) => {
      const p = f.get("programs.csv")!;
      const line = dataLine(random, p);
      setField(p, line, "line_of_business_id", p[line]!.split(",")[3] === "1" ? "30" : "1");
    },
  ],
  [
    "a LOB moved to another coverage",
    (f, random) => {
      const l = f.get("lines_of_business.csv")!;
      setField(l, dataLine(random, l), "coverage_id", String(1 + random.int(10)));
    },
  ],
  [
    "a company dropped",
    (f, random) => {
      const c = f.get("companies.csv")!;
      c.splice(dataLine(random, c), 1);
    },
  ],
  [
    "a coverage dropped",
    (f) => {
      const c = f.get("coverages.csv")!;
      c.splice(c.length - 1, 1);
    },
  ],
  [
    "a negative premium",
    (f, random) => {
      const p = f.get("programs.csv")!;
      setField(p, dataLine(random, p), "premium", "-5");
    },
  ],
  ["no programs file", (f) => void f.delete("programs.csv")],
  ["no companies file", (f) => void f.delete("companies.csv")],
];

async function snapshot(knex: Knex): Promise<unknown[]> {
  const tables = ["coverages", "lines_of_business", "companies", "programs", "loss_events", "dataset_version"];
  return Promise.all(
    tables.map((table) =>
      knex(table)
        .select("*")
        .orderByRaw("1")
        .then((rows) => rows.map((row) => JSON.stringify({ ...row, changed_at: undefined }))),
    ),
  );
}

async function outcome(knex: Knex, dir: string, options: ImportOptions): Promise<unknown> {
  try {
    const summary = await importDataset(knex, dir, options);
    return { summary: { ...summary, files: summary.files.map((f) => ({ ...f, elapsedMs: 0 })) } };
  } catch (error) {
    if (error instanceof ImportRejectedError)
      return { rejected: error.summary.rejects, files: error.summary.files.map((f) => ({ ...f, elapsedMs: 0 })) };
    return { error: (error as Error).message };
  }
}

t.test("the direct road ends exactly as staging and checking first, whatever the folder", async (t) => {
  const direct = await createTestDatabase(t);
  const checked = await createTestDatabase(t);
  const baseDir = await createTempDir(t, "cpb-direct-base-");
  await generateDataset(baseDir, { companies: 40, programs: 200, losses: 60, seed: "direct", asOf: "2026-11-22" });
  const base = await readFolder(baseDir);
  const work = await createTempDir(t, "cpb-direct-case-");
  const random = createSeededRandom("direct road");
  const seen = new Set<string>();
  for (let run = 0; run < 36; run++) {
    const empty = run % 3 === 0;
    if (!empty) {
      for (const { knex } of [direct, checked]) await importDataset(knex, baseDir, { replace: true });
    } else {
      for (const { knex } of [direct, checked])
        await knex.raw("truncate coverages, lines_of_business, companies, programs, loss_events");
    }
    const folder: Folder = new Map([...base].map(([file, lines]) => [file, [...lines]]));
    const [name, mutate] = random.pick(MUTATIONS);
    mutate(folder, random);
    await writeFolder(work, folder);
    const options: ImportOptions = { replace: random.chance(0.5), skipInvalid: random.chance(0.4) };
    const label = `${name}${empty ? " into empty tables" : ""}${options.replace ? ", --replace" : ""}${options.skipInvalid ? ", --skip-invalid" : ""}`;
    seen.add(name);
    const fast = await outcome(direct.knex, work, options);
    const exact = await outcome(checked.knex, work, { ...options, checkFirst: true });
    t.same(fast, exact, `${label}: the same outcome`);
    t.same(await snapshot(direct.knex), await snapshot(checked.knex), `${label}: the same tables`);
  }
  t.ok(seen.size >= 8, `many kinds of folder were tried (${[...seen].join(", ")})`);
});
