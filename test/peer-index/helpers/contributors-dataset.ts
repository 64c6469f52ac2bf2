import { stringify } from "csv-stringify/sync";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Knex } from "knex";
import type { SeededRandom } from "../../helpers/seeded-random.js";
import type { DrawPool } from "./random-peer-group.js";

/**
 * A data set (DATA-FORMAT.md) for counting contributors: company ids on both sides of
 * 2^31 and 2^32 and up to 2^53 - 1 (the peer index maps them to dense indexes), a few
 * companies holding most programs (so the two largest matter), and sources among
 * partners of unequal weight, `curated`, and none. Coverage 2 holds one limit of 2^53
 * cents, so the index hands it to SQL. unusualSources then stores sources no CSV
 * import makes.
 */
export const CONTRIBUTORS_AS_OF = "2026-08-31";

const NAICS = ["524126", "52", "523", "05", "051", "311", "31", "", "236115"];
const ORGANIZATIONS = ["PUB", "PRV", "NFP"];
const LINES: [number, number][] = [
  [1, 1],
  [2, 1],
  [3, 2],
];
const PARTNERS = ["P001", "P001", "P001", "P002", "P002", "P003", "P004", "P005"];
const EXPOSURES = ["", "0", "1000000", "25000000", "123456789.12", "5000000000"];
const AMOUNTS = ["", "0", "0.01", "100000", "1000000", "5000000", "25000", "250000"];

/** Ids around the edges a 32-bit index would break on, and far past them. */
function companyIds(count: number, random: SeededRandom): string[] {
  const edges = [1, 2, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 2, 2 ** 53 - 1].map(String);
  const ids = new Set(edges);
  while (ids.size < count) {
    const u = random.next();
    const id =
      u < 0.3
        ? 1 + random.int(100_000)
        : u < 0.6
          ? 2 ** 32 + random.int(2 ** 20)
          : 1 + Math.floor(random.next() * (2 ** 53 - 2));
    ids.add(String(id));
  }
  return [...ids];
}

function date(random: SeededRandom): string {
  return new Date(Date.UTC(2026, 7, 31) - random.int(900) * 86_400_000).toISOString().slice(0, 10);
}

async function writeCsv(dir: string, file: string, header: string[], rows: string[][]): Promise<void> {
  await writeFile(path.join(dir, file), stringify([header, ...rows]));
}

/** Writes the data set into `dir`; returns what random peer groups are drawn from. */
export async function writeContributorsDataset(
  dir: string,
  random: SeededRandom,
  companies = 120,
  programs = 2500,
): Promise<DrawPool> {
  await writeCsv(
    dir,
    "coverages.csv",
    ["coverage_id", "name"],
    [
      ["1", "Ordinary"],
      ["2", "Too large"],
    ],
  );
  await writeCsv(
    dir,
    "lines_of_business.csv",
    ["line_of_business_id", "coverage_id", "name"],
    LINES.map(([l, c]) => [String(l), String(c), `Line ${l}`]),
  );
  const ids = companyIds(companies, random);
  const companyRows = ids.map((id) => [
    id,
    `Company ${id}`,
    random.pick(ORGANIZATIONS),
    random.pick(NAICS),
    random.pick(EXPOSURES),
    random.pick(["", "10", "500"]),
    random.pick(EXPOSURES),
  ]);
  await writeCsv(
    dir,
    "companies.csv",
    ["company_id", "company_name", "organization_type", "naics", "revenues", "employees", "market_cap"],
    companyRows,
  );

  const programRows: string[][] = [];
  for (let id = 1; id <= programs; id++) {
    // Half the programs go to the first eighth of the companies: a few dominate.
    const company = random.chance(0.5) ? ids[random.int(Math.ceil(ids.length / 8))]! : random.pick(ids);
    const [line, coverage] = random.pick(LINES);
    const u = random.next();
    const source = u < 0.2 ? "curated" : u < 0.3 ? "" : random.pick(PARTNERS);
    const limit = coverage === 2 && id % 97 === 0 ? "90071992547409.92" : random.pick(AMOUNTS);
    programRows.push([
      String(id),
      company,
      String(coverage),
      String(line),
      date(random),
      limit,
      random.pick(AMOUNTS),
      random.pick(AMOUNTS),
      source,
    ]);
  }
  await writeCsv(
    dir,
    "programs.csv",
    [
      "program_id",
      "company_id",
      "coverage_id",
      "line_of_business_id",
      "effective_date",
      "limit",
      "premium",
      "retention",
      "source",
    ],
    programRows,
  );

  return {
    naics: companyRows.map((c) => c[3]!),
    coverageIds: [1, 1, 1, 2],
    lineOfBusinessIds: LINES.map(([l]) => l),
    organizationTypes: ORGANIZATIONS,
    amounts: [...EXPOSURES, ...AMOUNTS].filter(Boolean),
    years: [2025],
  };
}

/**
 * Sources a CSV import does not make (an empty field is NULL there), stored by hand on
 * some programs: the empty text (no source, as NULL), texts COPY escapes (a tab, a
 * newline, a backslash, a backslash before N, which must not read as NULL), non-ASCII
 * text, and near-misses of `curated`, which are partners.
 */
export const UNUSUAL_SOURCES = [
  "",
  "tab\there",
  "new\nline",
  "back\\slash",
  "\\",
  "\\N",
  "Ünïcødé ☂",
  "Curated",
  "curated ",
  "N",
];

export async function storeUnusualSources(knex: Knex): Promise<void> {
  for (const [k, source] of UNUSUAL_SOURCES.entries()) {
    await knex("programs").whereRaw("program_id % 41 = ?", [k]).update({ source });
  }
}
