import { stringify } from "csv-stringify/sync";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../../../src/benchmark/bands.js";
import type { SeededRandom } from "../../helpers/seeded-random.js";

/**
 * A data set (DATA-FORMAT.md) made to break a columnar engine: amounts on every band
 * bound and one cent either side, empty amounts, heavy ties, NAICS codes with leading
 * zeros, unknown exposures, and amounts at the edge of what a double holds exactly.
 *
 * Coverages:
 * 1 ordinary (most rows); 2 holds amounts and an exposure of 2^53 cents, one past what
 * the index holds exactly, so it must be served by SQL; 3 holds amounts of exactly
 * 2^53 - 1 cents, the largest the index serves; 4 has no programs and no losses.
 */
export const HOSTILE_AS_OF = "2026-08-31";
export const MAX_SAFE_CENTS = "90071992547409.91"; // 2^53 - 1 cents
export const UNSAFE_CENTS = "90071992547409.92"; // 2^53 cents

export const HOSTILE_NAICS = ["524126", "52", "523", "05", "051", "0511", "311", "31", "", "99", "999999", "236115"];
export const HOSTILE_ORGANIZATIONS = ["PUB", "PRV", "PSB", "NFP", "ZZTOP"];
const LINES: [number, number][] = [
  [1, 1],
  [2, 1],
  [3, 2],
  [4, 3],
  [5, 4],
];

function edges(bounds: readonly number[]): string[] {
  return bounds.flatMap((cents) => [cents - 1, cents, cents + 1].map((c) => (c / 100).toFixed(2)));
}

const LIMITS = ["", "", "0", "0.01", "5000000", "5000000", "5000000", ...edges(LIMIT_BANDS.upperBoundCents)];
const PREMIUMS = ["", "0", "0.01", "1.01", "25000", "25000", "25000", ...edges(PREMIUM_BANDS.upperBoundCents)];
const RETENTIONS = ["", "", "0", "100000", "100000", ...edges(RETENTION_BANDS.upperBoundCents)];
const EXPOSURES = ["", "0", "0.01", "1000000", "1000000", "1000000.01", "999999.99", "25000000", "123456789.12"];
// 2^24, the largest head count the index holds exactly; company 1 alone has more.
const EMPLOYEES = ["", "0", "1", "10", "10", "500", "16777216"];
const LOSS_AMOUNTS = ["0", "1", "1000000", "1000000", "1000000", "999999", "1000001", "9007199254740991", "250000"];

async function writeCsv(dir: string, file: string, header: string[], rows: string[][]): Promise<void> {
  await writeFile(path.join(dir, file), stringify([header, ...rows]));
}

function date(random: SeededRandom): string {
  // Mostly the last 30 months before the as-of date, on and around window bounds.
  const day = new Date(Date.UTC(2026, 7, 31) - random.int(900) * 86_400_000);
  if (random.chance(0.15))
    return random.pick([
      "2024-08-31",
      "2024-09-01",
      "2025-08-31",
      "2026-02-28",
      "2026-03-01",
      "2026-08-31",
      "2026-09-01",
    ]);
  return day.toISOString().slice(0, 10);
}

/** Writes the data set into `dir`; `scale` multiplies the rows. */
export async function writeHostileDataset(dir: string, random: SeededRandom, scale = 1): Promise<void> {
  await writeCsv(
    dir,
    "coverages.csv",
    ["coverage_id", "name"],
    [
      ["1", "Ordinary"],
      ["2", "Too large"],
      ["3", "Largest exact"],
      ["4", "Empty"],
    ],
  );
  await writeCsv(
    dir,
    "lines_of_business.csv",
    ["line_of_business_id", "coverage_id", "name"],
    LINES.map(([l, c]) => [String(l), String(c), `Line ${l}`]),
  );
  const companies: string[][] = [];
  const companyCount = 60 * scale;
  for (let id = 1; id <= companyCount; id++) {
    // Company 1 alone has exposures the index cannot hold; it buys only coverage 2.
    const revenues = id === 1 ? UNSAFE_CENTS : id === 2 ? MAX_SAFE_CENTS : random.pick(EXPOSURES);
    const employees = id === 1 ? "9007199254740991" : random.pick(EMPLOYEES);
    companies.push([
      String(id),
      `Company ${id}`,
      random.pick(HOSTILE_ORGANIZATIONS),
      random.pick(HOSTILE_NAICS),
      revenues,
      employees,
      random.pick(EXPOSURES),
    ]);
  }
  await writeCsv(
    dir,
    "companies.csv",
    ["company_id", "company_name", "organization_type", "naics", "revenues", "employees", "market_cap"],
    companies,
  );

  const programs: string[][] = [];
  for (let id = 1; id <= 700 * scale; id++) {
    const [line, coverage] = random.chance(0.8) ? random.pick(LINES.slice(0, 2)) : random.pick(LINES.slice(2, 4));
    const company = coverage === 2 && random.chance(0.3) ? 1 : 2 + random.int(companyCount - 1);
    const huge = coverage === 2 ? UNSAFE_CENTS : MAX_SAFE_CENTS;
    const amount = (list: string[]) => (coverage !== 1 && random.chance(0.2) ? huge : random.pick(list));
    programs.push([
      String(id),
      String(company),
      String(coverage),
      String(line),
      date(random),
      amount(LIMITS),
      amount(PREMIUMS),
      amount(RETENTIONS),
      "P001",
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
    programs,
  );

  const losses: string[][] = [];
  for (let i = 0; i < 200 * scale; i++) {
    const [line, coverage] = random.chance(0.8) ? random.pick(LINES.slice(0, 2)) : random.pick(LINES.slice(2, 4));
    const company = 2 + random.int(companyCount - 1);
    const accident = random.chance(0.3) ? "" : `${2015 + random.int(12)}-0${1 + random.int(9)}-15`;
    const filing = `${2016 + random.int(11)}-12-31T23:59:59`;
    losses.push([
      String(100000 - i),
      String(company),
      String(coverage),
      String(line),
      "Cat",
      "Type",
      accident,
      filing,
      "Open",
      random.pick(LOSS_AMOUNTS),
      "",
    ]);
  }
  await writeCsv(
    dir,
    "losses.csv",
    [
      "loss_event_id",
      "company_id",
      "coverage_id",
      "line_of_business_id",
      "loss_category",
      "loss_type",
      "accident_date",
      "filing_date",
      "status",
      "total_amount",
      "description",
    ],
    losses,
  );
}
