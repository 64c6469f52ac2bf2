import type { Knex } from "knex";
import type { Client } from "pg";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import { bumpDatasetVersion } from "./bump-dataset-version.js";
import { DATASET_FILES, type DatasetFile } from "./dataset-files.js";
import { loadDatasetFile, type FileLoad } from "./load-dataset-file.js";
import { acquirePgClient, releasePgClient } from "./pg-connection.js";

export interface ImportSummary {
  /** The dataset version this import created. */
  version: number;
  /** One entry per file found, in load order. */
  files: FileLoad[];
}

/**
 * Loads the data set folder `dir` (DATA-FORMAT.md) into the database: whichever of
 * the five files exist, upserted by id, in dependency order, in one transaction on
 * one connection that also bumps the dataset version, so readers see all of the
 * import or none of it. On any error the transaction is rolled back and the error
 * rethrown.
 */
export async function importDataset(knex: Knex, dir: string): Promise<ImportSummary> {
  const present = await filesPresent(dir);
  const client = await acquirePgClient(knex);
  let broken = false;
  try {
    await client.query("begin");
    const files: FileLoad[] = [];
    for (const spec of present) files.push(await loadDatasetFile(client, spec, path.join(dir, spec.file)));
    const version = await bumpDatasetVersion(client);
    await client.query("commit");
    await refreshPlannerStatistics(client, present);
    return { version, files };
  } catch (error) {
    try {
      await client.query("rollback");
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    await releasePgClient(knex, client, broken);
  }
}

/**
 * After a bulk load the planner needs fresh statistics, and the trigram index of
 * company names its pending list merged (only autovacuum would otherwise do it, and
 * until then the planner prices the index too high to use it).
 */
async function refreshPlannerStatistics(client: Client, loaded: DatasetFile[]): Promise<void> {
  const tables = loaded.map((spec) => spec.table);
  if (tables.includes("companies")) await client.query("select gin_clean_pending_list('companies_name_trigram'::regclass)");
  if (tables.length) await client.query(`analyze ${tables.join(", ")}`);
}

/** The known files present in `dir`; throws when `dir` is not a readable folder. */
async function filesPresent(dir: string): Promise<DatasetFile[]> {
  if (!(await stat(dir)).isDirectory()) throw new Error(`${dir} is not a folder`);
  const found: DatasetFile[] = [];
  for (const spec of DATASET_FILES) {
    try {
      await access(path.join(dir, spec.file));
      found.push(spec);
    } catch {
      // each file is optional (DATA-FORMAT.md)
    }
  }
  return found;
}
