import { stringify } from "csv-stringify/sync";
import { writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A hand-made data set (DATA-FORMAT.md) for the as-of date 2026-08-31 that sits on
 * the edges of the rules: amounts exactly on band bounds, many ties, zero and empty
 * amounts, amounts with a third decimal (rounded on import), companies without a
 * NAICS code or exposures, effective dates on and next to every window bound
 * (with month-end clamping), and losses without an accident date.
 */
export const EDGE_AS_OF = "2026-08-31";

const NAICS = ["524126", "52", "523110", "5241", "311", "31", "", "236115", "524", "23"];
const ORGANIZATIONS = ["PUB", "PRV", "psb", "NFP", "Prv"];
const REVENUES = ["", "0", "100000", "1000000", "1000000.50", "2000000", "1000000", "123.456"];
const EMPLOYEES = ["", "0", "10", "10", "500", "25"];
const MARKET_CAPS = ["", "0", "5000000", "123.456", "5000000", "1000000000"];

// Window bounds for 2026-08-31: 24 -> 2024-08-31, 12 -> 2025-08-31, 9 -> 2025-11-30,
// 6 -> 2026-02-28, 3 -> 2026-05-31; each with its neighbours.
const DATES = [
  "2024-08-30",
  "2024-08-31",
  "2024-09-01",
  "2025-08-31",
  "2025-09-01",
  "2025-11-29",
  "2025-11-30",
  "2025-12-01",
  "2026-02-27",
  "2026-02-28",
  "2026-03-01",
  "2026-05-31",
  "2026-06-01",
  "2026-08-31",
  "2026-09-01",
  "2020-01-01",
  "2026-08-30",
];
const LIMITS = [
  "",
  "0",
  "100000",
  "100000.01",
  "99999.99",
  "1000000",
  "1000000000",
  "1000000000.01",
  "250000",
  "750000",
  "5000000",
  "1000000",
  "400000",
  "2000000",
  "0.03",
];
const PREMIUMS = [
  "",
  "0",
  "1000",
  "1005",
  "1.005",
  "10000000",
  "2.01",
  "0.01",
  "1",
  "25000",
  "1000",
  "10000000.01",
  "2000",
];
const RETENTIONS = ["", "0", "1000", "25000000", "25000000.01", "2500000", "1000", "15000"];
const LOSS_AMOUNTS = [
  "0",
  "1",
  "100000",
  "1000000",
  "1000000",
  "500000",
  "999999",
  "1000001",
  "9007199254740991",
  "250000",
  "1000000",
];
const ACCIDENTS = ["", "2024-12-31T23:59:59", "2025-01-01", "", "2023-06-30", "2019-02-28T08:00:00", "2026-08-31"];
const FILINGS = ["2025-01-01", "2025-01-02T10:00:00", "2024-12-31", "2023-06-30T10:00:00", "2026-08-31", "2020-01-01"];
const COVERAGE_LINES: [number, number][] = [
  [1, 1],
  [1, 2],
  [2, 3],
  [1, 1],
];

const COMPANIES = 40;
const PROGRAMS = 400;
const LOSSES = 120;

async function writeCsv(dir: string, file: string, header: string[], rows: (string | number)[][]): Promise<void> {
  await writeFile(path.join(dir, file), stringify([header, ...rows]));
}

/** Writes the edge data set into `dir` (which must exist). */
export async function writeEdgeDataset(dir: string): Promise<void> {
  await writeCsv(
    dir,
    "coverages.csv",
    ["coverage_id", "name"],
    [
      [1, "Directors & Officers"],
      [2, "Cyber"],
    ],
  );
  await writeCsv(
    dir,
    "lines_of_business.csv",
    ["line_of_business_id", "coverage_id", "name"],
    [
      [1, 1, "Public D&O"],
      [2, 1, "Private D&O"],
      [3, 2, "Network Security"],
    ],
  );
  const companies: string[][] = [];
  for (let i = 0; i < COMPANIES; i++) {
    companies.push([
      String(i + 1),
      `Edge Company ${i + 1}, Inc.`,
      ORGANIZATIONS[i % ORGANIZATIONS.length] as string,
      NAICS[i % NAICS.length] as string,
      REVENUES[(i * 3) % REVENUES.length] as string,
      EMPLOYEES[i % EMPLOYEES.length] as string,
      MARKET_CAPS[(i * 5) % MARKET_CAPS.length] as string,
    ]);
  }
  await writeCsv(
    dir,
    "companies.csv",
    ["company_id", "company_name", "organization_type", "naics", "revenues", "employees", "market_cap"],
    companies,
  );

  const programs: string[][] = [];
  for (let i = 0; i < PROGRAMS; i++) {
    const [coverage, line] = COVERAGE_LINES[i % COVERAGE_LINES.length] as [number, number];
    programs.push([
      String(i + 1),
      String(((i * 7) % COMPANIES) + 1),
      String(coverage),
      String(line),
      DATES[(i * 5) % DATES.length] as string,
      LIMITS[(i * 3) % LIMITS.length] as string,
      PREMIUMS[(i * 7) % PREMIUMS.length] as string,
      RETENTIONS[(i * 11) % RETENTIONS.length] as string,
      i % 3 === 0 ? "curated" : "P001",
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
  for (let i = 0; i < LOSSES; i++) {
    const [coverage, line] = COVERAGE_LINES[(i * 3) % COVERAGE_LINES.length] as [number, number];
    losses.push([
      String(1000 - i), // ids descending against row order, so ties in amount sort by id
      String(((i * 11) % COMPANIES) + 1),
      String(coverage),
      String(line),
      "Securities",
      "Stock Drop",
      ACCIDENTS[i % ACCIDENTS.length] as string,
      FILINGS[(i * 5) % FILINGS.length] as string,
      "Settled",
      LOSS_AMOUNTS[(i * 7) % LOSS_AMOUNTS.length] as string,
      i % 4 === 0 ? 'Shareholders alleged, among other things,\nmisleading "statements".' : "",
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
