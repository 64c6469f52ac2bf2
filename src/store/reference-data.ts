import type { Knex } from "knex";

/** The reference data as stored, read in one snapshot with the dataset version it belongs to. */
export interface ReferenceRows {
  datasetVersion: number;
  /** By coverage_id. */
  coverages: { coverageId: number; name: string }[];
  /** By line_of_business_id. */
  linesOfBusiness: { lineOfBusinessId: number; coverageId: number; name: string }[];
  /** The distinct organization types of the companies. */
  organizationTypes: string[];
  /** The distinct naics2 and naics3 values of the companies (their codes' 2- and 3-digit prefixes). */
  naics2: string[];
  naics3: string[];
}

/**
 * The distinct values of an indexed column of companies by a loose index scan (the
 * PostgreSQL wiki's "Loose indexscan"): one index probe per distinct value, each for
 * the next value above the last, instead of reading all 650K rows as a DISTINCT does.
 * The column must have a b-tree index (companies_organization_type, companies_naics2,
 * companies_naics3); nulls are skipped.
 */
function distinctValues(column: "organization_type" | "naics2" | "naics3"): string {
  return `array(
    with recursive found(value) as (
      (select ${column} from companies where ${column} is not null order by ${column} limit 1)
      union all
      select (select ${column} from companies where ${column} > found.value order by ${column} limit 1)
      from found where found.value is not null
    )
    select value from found where value is not null
  )`;
}

/**
 * Everything the reference data is built from, in one statement: one snapshot, so the
 * dataset version read is the version of the rows read with it (an import bumps it in
 * the transaction that changes them, bump-dataset-version.ts).
 */
export async function readReferenceRows(knex: Knex): Promise<ReferenceRows> {
  const result = await knex.raw<{ rows: RawRow[] }>(`
    select
      (select version::text from dataset_version) as dataset_version,
      array(select json_build_array(coverage_id, name) from coverages order by coverage_id) as coverages,
      array(select json_build_array(line_of_business_id, coverage_id, name) from lines_of_business order by line_of_business_id) as lines_of_business,
      ${distinctValues("organization_type")} as organization_types,
      ${distinctValues("naics2")} as naics2,
      ${distinctValues("naics3")} as naics3
  `);
  const row = result.rows[0]!;
  if (row.dataset_version === null) throw new Error("dataset_version has no row; run the migrations");
  return {
    datasetVersion: Number(row.dataset_version),
    coverages: row.coverages.map(([coverageId, name]) => ({ coverageId, name })),
    linesOfBusiness: row.lines_of_business.map(([lineOfBusinessId, coverageId, name]) => ({
      lineOfBusinessId,
      coverageId,
      name,
    })),
    organizationTypes: row.organization_types,
    naics2: row.naics2,
    naics3: row.naics3,
  };
}

interface RawRow {
  dataset_version: string | null;
  coverages: [number, string][];
  lines_of_business: [number, number, string][];
  organization_types: string[];
  naics2: string[];
  naics3: string[];
}

/** The dataset version now: one row of one column, for a caller that has no watcher to ask. */
export async function readDatasetVersion(knex: Knex): Promise<number> {
  const row = await knex("dataset_version").first(knex.raw("version::text as version"));
  if (!row) throw new Error("dataset_version has no row; run the migrations");
  return Number((row as { version: string }).version);
}
