import {
  date,
  dateOrDateTime,
  integer,
  MAX_INT32,
  MAX_SAFE,
  money,
  naics,
  optional,
  organizationType,
  required,
  text,
  type FieldReader,
} from "./field-readers.js";

/**
 * The five files of a data set folder (DATA-FORMAT.md) and where each lands: the
 * table, its key, its columns with their reading rules, and the references checked
 * in SQL. Listed in dependency order: every reference points at a file before it.
 */
export interface ColumnSpec {
  /** The header name in the CSV file. */
  readonly header: string;
  /** The column of the target table (and of the staging table). */
  readonly column: string;
  /** The column's SQL type in the staging table. */
  readonly sqlType: string;
  readonly read: FieldReader;
  /** Whether the file must have this column at all. */
  readonly mandatory: boolean;
}

/** A column holding the id of a row of another file's table. */
export interface ReferenceSpec {
  readonly column: string;
  readonly table: string;
  /** How the referenced thing is named in reasons: "no company 5 ...". */
  readonly noun: string;
}

export interface DatasetFile {
  readonly file: string;
  readonly table: string;
  readonly key: string;
  readonly columns: readonly ColumnSpec[];
  readonly references: readonly ReferenceSpec[];
  /** Whether its (coverage_id, line_of_business_id) must name a LOB of that coverage. */
  readonly lineOfBusinessOfCoverage: boolean;
}

const id = integer(1n, MAX_SAFE);
const smallId = integer(1n, MAX_INT32);
const count = integer(0n, MAX_SAFE);

function column(header: string, sqlType: string, read: FieldReader, mandatory: boolean, name = header): ColumnSpec {
  return { header, column: name, sqlType, read: mandatory ? required(read) : optional(read), mandatory };
}
const must = (header: string, sqlType: string, read: FieldReader, name?: string) =>
  column(header, sqlType, read, true, name);
const may = (header: string, sqlType: string, read: FieldReader, name?: string) =>
  column(header, sqlType, read, false, name);

const COVERAGE = { column: "coverage_id", table: "coverages", noun: "coverage" };
const LINE_OF_BUSINESS = { column: "line_of_business_id", table: "lines_of_business", noun: "line of business" };
const COMPANY = { column: "company_id", table: "companies", noun: "company" };

export const DATASET_FILES: readonly DatasetFile[] = [
  {
    file: "coverages.csv",
    table: "coverages",
    key: "coverage_id",
    columns: [must("coverage_id", "integer", smallId), must("name", "text", text)],
    references: [],
    lineOfBusinessOfCoverage: false,
  },
  {
    file: "lines_of_business.csv",
    table: "lines_of_business",
    key: "line_of_business_id",
    columns: [
      must("line_of_business_id", "integer", smallId),
      must("coverage_id", "integer", smallId),
      must("name", "text", text),
    ],
    references: [COVERAGE],
    lineOfBusinessOfCoverage: false,
  },
  {
    file: "companies.csv",
    table: "companies",
    key: "company_id",
    columns: [
      must("company_id", "bigint", id),
      must("company_name", "text", text),
      must("organization_type", "text", organizationType),
      may("naics", "text", naics),
      may("revenues", "numeric(20, 2)", money),
      may("employees", "bigint", count),
      may("market_cap", "numeric(20, 2)", money),
    ],
    references: [],
    lineOfBusinessOfCoverage: false,
  },
  {
    file: "programs.csv",
    table: "programs",
    key: "program_id",
    columns: [
      must("program_id", "bigint", id),
      must("company_id", "bigint", id),
      must("coverage_id", "integer", smallId),
      must("line_of_business_id", "integer", smallId),
      must("effective_date", "date", date),
      may("limit", "numeric(20, 2)", money, "limit_amount"),
      may("premium", "numeric(20, 2)", money),
      may("retention", "numeric(20, 2)", money),
      may("source", "text", text),
    ],
    references: [COMPANY, COVERAGE, LINE_OF_BUSINESS],
    lineOfBusinessOfCoverage: true,
  },
  {
    file: "losses.csv",
    table: "loss_events",
    key: "loss_event_id",
    columns: [
      must("loss_event_id", "bigint", id),
      must("company_id", "bigint", id),
      must("coverage_id", "integer", smallId),
      must("line_of_business_id", "integer", smallId),
      must("loss_category", "text", text),
      must("loss_type", "text", text),
      may("accident_date", "timestamp(0)", dateOrDateTime),
      must("filing_date", "timestamp(0)", dateOrDateTime),
      must("status", "text", text),
      must("total_amount", "bigint", count),
      may("description", "text", text),
    ],
    references: [COMPANY, COVERAGE, LINE_OF_BUSINESS],
    lineOfBusinessOfCoverage: true,
  },
];
