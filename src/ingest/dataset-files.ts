/**
 * The five files of a data set folder (DATA-FORMAT.md) and where each lands: the
 * table, its key, and per column the CSV header, the table column and the SQL that
 * turns the staged text into the column's type. Listed in dependency order, so
 * every reference points at a table loaded before it.
 */
export interface ColumnSpec {
  /** The header name in the CSV file. */
  readonly header: string;
  /** The column of the target table (and of the staging table). */
  readonly column: string;
  /** SQL converting the staged text column `value` to the target type. */
  readonly convert: (value: string) => string;
}

export interface DatasetFile {
  readonly file: string;
  readonly table: string;
  readonly key: string;
  readonly columns: readonly ColumnSpec[];
}

const text = (value: string): string => value;
const integer = (value: string): string => `${value}::integer`;
const bigint = (value: string): string => `${value}::bigint`;
// numeric(20,2): PostgreSQL's round(numeric, 2) rounds half away from zero, the
// rule DATA-FORMAT.md sets for decimals with more than two places.
const money = (value: string): string => `round(${value}::numeric, 2)`;
const code = (value: string): string => `upper(${value})`;
const date = (value: string): string => `${value}::date`;
const timestamp = (value: string): string => `${value}::timestamp(0)`;

const column = (header: string, convert: (value: string) => string, name = header): ColumnSpec => ({
  header,
  column: name,
  convert,
});

export const DATASET_FILES: readonly DatasetFile[] = [
  {
    file: "coverages.csv",
    table: "coverages",
    key: "coverage_id",
    columns: [column("coverage_id", integer), column("name", text)],
  },
  {
    file: "lines_of_business.csv",
    table: "lines_of_business",
    key: "line_of_business_id",
    columns: [column("line_of_business_id", integer), column("coverage_id", integer), column("name", text)],
  },
  {
    file: "companies.csv",
    table: "companies",
    key: "company_id",
    columns: [
      column("company_id", bigint),
      column("company_name", text),
      column("organization_type", code),
      column("naics", text),
      column("revenues", money),
      column("employees", bigint),
      column("market_cap", money),
    ],
  },
  {
    file: "programs.csv",
    table: "programs",
    key: "program_id",
    columns: [
      column("program_id", bigint),
      column("company_id", bigint),
      column("coverage_id", integer),
      column("line_of_business_id", integer),
      column("effective_date", date),
      column("limit", money, "limit_amount"),
      column("premium", money),
      column("retention", money),
      column("source", text),
    ],
  },
  {
    file: "losses.csv",
    table: "loss_events",
    key: "loss_event_id",
    columns: [
      column("loss_event_id", bigint),
      column("company_id", bigint),
      column("coverage_id", integer),
      column("line_of_business_id", integer),
      column("loss_category", text),
      column("loss_type", text),
      column("accident_date", timestamp),
      column("filing_date", timestamp),
      column("status", text),
      column("total_amount", bigint),
      column("description", text),
    ],
  },
];
