/**
 * The dataset version as a column of a lookup's own statement: the version of the very
 * rows the statement reads (an import's rows and its version bump commit together), as
 * exact text. Migrations give dataset_version its one row.
 */
export const DATASET_VERSION_COLUMN = "(select version::text from dataset_version)";
