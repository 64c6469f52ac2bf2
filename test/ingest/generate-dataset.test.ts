import { stringify } from "csv-stringify/sync";
import { readFile } from "node:fs/promises";
import path from "node:path";
import t from "tap";
import { csvField } from "../../src/ingest/generate/csv-text.js";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { readCsv } from "./helpers/read-csv.js";
import { createTempDir } from "./helpers/temp-dir.js";

const FILES = ["coverages.csv", "lines_of_business.csv", "companies.csv", "programs.csv", "losses.csv"];
const AS_OF = "2026-11-22";

async function filesOf(dir: string): Promise<Record<string, Buffer>> {
  return Object.fromEntries(await Promise.all(FILES.map(async (file) => [file, await readFile(path.join(dir, file))])));
}

t.test("the same seed writes byte-identical files; another seed does not", async (t) => {
  const options = { companies: 400, programs: 2000, losses: 300, seed: "alpha", asOf: AS_OF };
  const [a, b, c] = [await createTempDir(t), await createTempDir(t), await createTempDir(t)];
  await generateDataset(a, options);
  await generateDataset(b, options);
  await generateDataset(c, { ...options, seed: "beta" });
  const [first, second, other] = [await filesOf(a), await filesOf(b), await filesOf(c)];
  for (const file of FILES) t.ok(first[file]?.equals(second[file] as Buffer), `${file} is identical`);
  for (const file of ["companies.csv", "programs.csv", "losses.csv"]) {
    t.notOk(first[file]?.equals(other[file] as Buffer), `${file} differs with another seed`);
  }
});

t.test("each table has its own stream: more programs leave the companies as they were", async (t) => {
  const [a, b] = [await createTempDir(t), await createTempDir(t)];
  await generateDataset(a, { companies: 200, programs: 500, losses: 50, seed: 7, asOf: AS_OF });
  await generateDataset(b, { companies: 200, programs: 900, losses: 50, seed: 7, asOf: AS_OF });
  const [first, second] = [await filesOf(a), await filesOf(b)];
  t.ok(first["companies.csv"]?.equals(second["companies.csv"] as Buffer));
  t.ok(first["losses.csv"]?.equals(second["losses.csv"] as Buffer));
});

t.test("creates the folder, counts rows, and ids run from 1", async (t) => {
  const dir = path.join(await createTempDir(t), "nested", "set");
  const { files } = await generateDataset(dir, { companies: 50, programs: 120, losses: 30, seed: 1, asOf: AS_OF });
  t.same(files, {
    "coverages.csv": 10,
    "lines_of_business.csv": 35,
    "companies.csv": 50,
    "programs.csv": 120,
    "losses.csv": 30,
  });
  const programs = await readCsv(dir, "programs.csv");
  t.same(
    programs.map((row) => Number(row.program_id)),
    Array.from({ length: 120 }, (_, i) => i + 1),
  );
});

t.test("rejects bad options", async (t) => {
  const dir = await createTempDir(t);
  await t.rejects(generateDataset(dir, { companies: -1 }), RangeError);
  await t.rejects(generateDataset(dir, { programs: 1.5 }), RangeError);
  await t.rejects(generateDataset(dir, { asOf: "2026-02-30" }), RangeError);
  await t.rejects(generateDataset(dir, { companies: 0, programs: 1 }), RangeError);
});

t.test("the data respects DATA-FORMAT.md and looks like a real book", async (t) => {
  const dir = await createTempDir(t);
  await generateDataset(dir, { companies: 4000, programs: 30_000, losses: 4000, seed: "format", asOf: AS_OF });
  const coverages = await readCsv(dir, "coverages.csv");
  const lines = await readCsv(dir, "lines_of_business.csv");
  const companies = await readCsv(dir, "companies.csv");
  const programs = await readCsv(dir, "programs.csv");
  const losses = await readCsv(dir, "losses.csv");

  const coverageIds = new Set(coverages.map((row) => row.coverage_id));
  t.equal(coverageIds.size, coverages.length, "coverage ids are unique");
  t.ok(coverages.length >= 8 && coverages.length <= 12);
  const lineCoverage = new Map(lines.map((row) => [row.line_of_business_id, row.coverage_id]));
  t.equal(lineCoverage.size, lines.length, "LOB ids are unique across coverages");
  for (const line of lines)
    t.ok(coverageIds.has(line.coverage_id as string), `LOB ${line.line_of_business_id} has a coverage`);

  const decimal = /^\d+(\.\d{1,2})?$/;
  const companyById = new Map(companies.map((row) => [row.company_id, row]));
  const problems: string[] = [];
  const check = (ok: boolean, what: string): void => {
    if (!ok && problems.length < 20) problems.push(what);
  };
  for (const c of companies) {
    check(c.company_name !== "", `company ${c.company_id} name`);
    check(/^(PUB|PRV|PSB|NFP)$/.test(c.organization_type as string), `company ${c.company_id} type`);
    check(/^(\d{2,6})?$/.test(c.naics as string), `company ${c.company_id} naics ${c.naics}`);
    check(
      c.revenues === "" || (decimal.test(c.revenues as string) && Number(c.revenues) >= 100_000),
      `revenues ${c.revenues}`,
    );
    check(/^\d*$/.test(c.employees as string), `employees ${c.employees}`);
    check(
      c.market_cap === "" || (decimal.test(c.market_cap as string) && c.organization_type === "PUB"),
      `market cap ${c.market_cap}`,
    );
  }

  const tenYearsBefore = "2016-11-01";
  for (const p of programs) {
    check(companyById.has(p.company_id), `program ${p.program_id} company`);
    check(
      lineCoverage.get(p.line_of_business_id as string) === p.coverage_id,
      `program ${p.program_id} LOB of its coverage`,
    );
    check(/^\d{4}-\d{2}-\d{2}$/.test(p.effective_date as string), `program ${p.program_id} date`);
    check(
      (p.effective_date as string) <= AS_OF && (p.effective_date as string) >= tenYearsBefore,
      `date ${p.effective_date}`,
    );
    for (const money of ["limit", "premium", "retention"])
      check(p[money] === "" || decimal.test(p[money] as string), `${money} ${p[money]}`);
    check(/^(P\d{3}|curated)?$/.test(p.source as string), `source ${p.source}`);
  }

  const dateOrTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/;
  for (const l of losses) {
    check(companyById.has(l.company_id), `loss ${l.loss_event_id} company`);
    check(
      lineCoverage.get(l.line_of_business_id as string) === l.coverage_id,
      `loss ${l.loss_event_id} LOB of its coverage`,
    );
    check(l.loss_category !== "" && l.loss_type !== "" && l.status !== "", `loss ${l.loss_event_id} required text`);
    check(l.accident_date === "" || dateOrTime.test(l.accident_date as string), `accident ${l.accident_date}`);
    check(dateOrTime.test(l.filing_date as string), `filing ${l.filing_date}`);
    check((l.filing_date as string).slice(0, 10) <= AS_OF, `filing ${l.filing_date} after as-of`);
    check(
      l.accident_date === "" || (l.accident_date as string) < (l.filing_date as string),
      `filing before accident in ${l.loss_event_id}`,
    );
    check(/^\d+$/.test(l.total_amount as string), `amount ${l.total_amount}`);
  }
  t.same(problems, [], "every row is well-formed");

  // The features an importer must cope with are present.
  const names = companies.map((row) => row.company_name as string);
  t.ok(
    names.some((name) => name.includes(",")),
    "a name with a comma",
  );
  t.ok(
    names.some((name) => name.includes('"')),
    "a name with a quote",
  );
  t.ok(
    names.some((name) => /[^\x20-\x7e]/.test(name)),
    "a non-ASCII name",
  );
  t.ok(new Set(names).size < names.length, "some names repeat");
  t.ok(
    losses.some((row) => (row.description as string).includes("\n")),
    "a description with a line break",
  );
  t.ok(
    losses.some((row) => row.description === ""),
    "an empty description",
  );
  t.ok(
    losses.some((row) => row.accident_date === ""),
    "an unknown accident date",
  );
  t.ok(
    losses.some((row) => (row.filing_date as string).includes("T")),
    "a filing date-time",
  );
  t.ok(
    companies.some((row) => row.naics === ""),
    "a company without NAICS",
  );
  t.ok(
    companies.some((row) => row.naics?.length === 2),
    "a 2-digit NAICS",
  );
  t.ok(
    programs.some((row) => row.limit === "1000000"),
    "a limit on a band edge",
  );
  t.ok(
    programs.some((row) => row.retention === "0"),
    "a zero retention",
  );
  const types = count(companies.map((row) => row.organization_type as string));
  t.ok((types.get("PRV") ?? 0) > companies.length / 2, "most companies are private");

  // CONVENTIONS.md, Performance measurement: the broadest class of the busiest coverage
  // (24 months up to the as-of date, any NAICS, revenues known) holds >= 2% of programs.
  const windowStart = "2024-11-22";
  const inWindow = programs.filter((p) => (p.effective_date as string) > windowStart);
  const busiest = [...count(inWindow.map((p) => p.coverage_id as string))].sort((x, y) => y[1] - x[1])[0]?.[0];
  const broadest = inWindow.filter((p) => {
    const company = companyById.get(p.company_id);
    return p.coverage_id === busiest && company?.naics !== "" && company?.revenues !== "";
  });
  t.ok(broadest.length / programs.length >= 0.02, `broadest class holds ${broadest.length} of ${programs.length}`);
  t.ok(inWindow.length / programs.length > 0.2, "programs are denser in recent years");
});

t.test("csvField quotes exactly as csv-stringify does", async (t) => {
  for (const text of ["plain", "a, b", 'say "hi"', "two\nlines", "cr\rhere", "Müller", "", ' "x", y ']) {
    t.equal(csvField(text), stringify([[text]]).slice(0, -1), JSON.stringify(text));
  }
});

function count(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
