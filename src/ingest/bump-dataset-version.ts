import type { Client } from "pg";

import { DATASET_VERSION_CHANNEL } from "../store/dataset-version-watcher.js";

/**
 * Bumps the dataset version inside the caller's transaction and queues a
 * notification carrying the new version. PostgreSQL delivers NOTIFY only at
 * commit, so servers hear of the version exactly when the data is visible.
 */
export async function bumpDatasetVersion(client: Client): Promise<number> {
  const result = await client.query<{ version: string }>(
    `with bumped as (
       update dataset_version set version = version + 1, changed_at = now() returning version
     )
     select version::text as version, pg_notify($1, version::text) from bumped`,
    [DATASET_VERSION_CHANNEL],
  );
  const row = result.rows[0];
  if (!row) throw new Error("dataset_version has no row; run the migrations");
  return Number(row.version);
}
