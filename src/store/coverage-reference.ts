import type { Knex } from "knex";
import type { CoverageReference } from "../benchmark/peer-group.js";
import { DATASET_VERSION_COLUMN } from "./dataset-version-column.js";

/**
 * Columns that tell whether a coverage exists and which lines of business it has,
 * and the dataset version, to add to an operation's own statement: one round trip
 * checks and answers, and the version is of the very data the statement reads.
 */
export function coverageReferenceColumns(knex: Knex, coverageId: number): Knex.Raw[] {
  return [
    knex.raw("exists (select 1 from coverages where coverage_id = ?) as coverage_known", [coverageId]),
    knex.raw(
      "array(select line_of_business_id from lines_of_business where coverage_id = ? order by 1) as coverage_lobs",
      [coverageId],
    ),
    knex.raw(`${DATASET_VERSION_COLUMN} as dataset_version`),
  ];
}

export function toCoverageReference(row: {
  coverage_known: boolean;
  coverage_lobs: number[];
  dataset_version: string | null;
}): CoverageReference {
  if (row.dataset_version === null) throw new Error("dataset_version has no row; run the migrations");
  return {
    coverageKnown: row.coverage_known,
    lineOfBusinessIds: row.coverage_lobs,
    datasetVersion: Number(row.dataset_version),
  };
}

/** The reference alone, for a request already known to be invalid (the error path). */
export async function findCoverageReference(knex: Knex, coverageId: number): Promise<CoverageReference> {
  const row = await knex.first(coverageReferenceColumns(knex, coverageId));
  return toCoverageReference(row);
}
