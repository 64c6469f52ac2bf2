import type { Knex } from "knex";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import type { Client } from "pg";
import { bumpDatasetVersion } from "./bump-dataset-version.js";
import { loadDirectly } from "./direct-load.js";
import { DATASET_FILES, type DatasetFile } from "./dataset-files.js";
import { clearScratch, releaseImportLock, takeImportLock } from "./import-scratch.js";
import { acquirePgClient, releasePgClient } from "./pg-connection.js";
import { readRejects, writeRejectsCsv, type RejectReport } from "./reject-report.js";
import { checkRows } from "./row-checks.js";
import { createRejectsTable, stageFile, stagingTable, type ProgressListener } from "./staging.js";
import { swapIn } from "./table-swap.js";
import { writeTables } from "./write-tables.js";

export interface ImportOptions {
  /** Each present file becomes the whole content of its table. */
  replace?: boolean;
  /** Load the good rows and report the rest, instead of loading nothing. */
  skipInvalid?: boolean;
  /** Also write every problem, as CSV, to this file. */
  rejectsFile?: string;
  /** How many problems the summary carries in full. */
  reportLimit?: number;
  onProgress?: (file: string, ...progress: Parameters<ProgressListener>) => void;
  /** Take the exact road even for a first load or --replace: stage and check every row first (tests compare both roads). */
  checkFirst?: boolean;
}

/** What an import did to one file's table. */
export interface FileSummary {
  file: string;
  /** Records read (the header not counted). */
  read: number;
  inserted: number;
  updated: number;
  rejected: number;
  /** Rows --replace removed because the file does not restate them. */
  deleted: number;
  elapsedMs: number;
}

export interface ImportSummary {
  /** The dataset version this import created; undefined when nothing was written. */
  version?: number;
  files: FileSummary[];
  rejects: RejectReport;
}

/** Rows were refused and --skip-invalid was not given: nothing was written. */
export class ImportRejectedError extends Error {
  constructor(readonly summary: ImportSummary) {
    super(
      `${summary.rejects.total} problem${summary.rejects.total === 1 ? "" : "s"} in the data: nothing was imported`,
    );
  }
}

/**
 * Imports a data set folder (DATA-FORMAT.md): what readers see changes in one
 * transaction, all of it or none of it, and a killed import leaves the old data whole.
 * One import runs at a time (an advisory lock).
 *
 * A first load or a --replace takes the fast road first (direct-load.ts): every file
 * straight into its table's replacement, built in the scratch schema, its keys the
 * only checks between rows; the import's transaction then swaps the replacements in.
 * Any other import, or one that road declines (a refused field, a failing key), takes
 * the exact road, all in the import's transaction: every present file is streamed into
 * a staging table, its fields checked on the way; then the checks between rows (ids,
 * references, in SQL), and unless rows were refused without --skip-invalid, the tables
 * are written (write-tables.ts). Both bump the dataset version.
 */
export async function importDataset(knex: Knex, dir: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const present = await filesPresent(dir);
  const presentFiles = new Set(present.map((spec) => spec.file));
  const replace = options.replace ?? false;
  const client = await acquirePgClient(knex);
  let broken = false;
  let locked = false;
  try {
    await takeImportLock(client);
    locked = true;
    const files: FileSummary[] = present.map((spec) => ({
      file: spec.file,
      read: 0,
      inserted: 0,
      updated: 0,
      rejected: 0,
      deleted: 0,
      elapsedMs: 0,
    }));
    const fileColumns: string[][] = [];
    const timed = async (i: number, work: () => Promise<void>) => {
      const started = performance.now();
      try {
        await work();
      } finally {
        files[i]!.elapsedMs += performance.now() - started;
      }
    };
    const direct = options.checkFirst
      ? undefined
      : await loadDirectly({ knex, client, dir, present, replace, files, timed, onProgress: options.onProgress });

    await client.query("begin");
    // Set-based checks hash whole id sets, and rebuilt tables sort for their indexes:
    // give them memory for this transaction only.
    await client.query("set local work_mem = '256MB'");
    await client.query("set local maintenance_work_mem = '256MB'");
    // The checks already hold the final state to every reference; the foreign keys,
    // deferred to the commit, then allow a LOB to move coverage before the programs
    // that restate it are merged.
    await client.query("set constraints all deferred");
    await createRejectsTable(client);
    if (direct) {
      await swapIn(client, direct);
    } else {
      // Every file is staged before any is checked: the checks between files (a LOB
      // moving coverage under stored programs) look at the staged children too.
      for (const [rank, spec] of present.entries()) {
        await timed(rank, async () => {
          const staged = await stageFile(client, spec, path.join(dir, spec.file), rank, (...progress) =>
            options.onProgress?.(spec.file, ...progress),
          );
          files[rank]!.read = staged.rows;
          fileColumns[rank] = staged.columns;
        });
      }
      for (const [rank, spec] of present.entries()) {
        await timed(rank, async () => {
          await checkRows(client, spec, rank, { present: presentFiles, replace });
          files[rank]!.rejected = await countRejected(client, spec);
        });
      }
    }
    const rejects = await readRejects(client, options.reportLimit ?? 50);
    if (options.rejectsFile) await writeRejectsCsv(client, options.rejectsFile);
    if (rejects.total > 0 && !options.skipInvalid) {
      await client.query("rollback");
      throw new ImportRejectedError({ files, rejects });
    }
    const { merged } = direct
      ? { merged: [] }
      : await writeTables({ client, present, presentFiles, files, fileColumns, replace, timed });
    const version = await bumpDatasetVersion(client);
    await client.query("commit");
    await refreshPlannerStatistics(client, merged);
    return { version, files: files.map((f) => ({ ...f, elapsedMs: Math.round(f.elapsedMs) })), rejects };
  } catch (error) {
    if (!(error instanceof ImportRejectedError)) {
      try {
        await client.query("rollback");
      } catch {
        broken = true;
      }
    }
    throw error;
  } finally {
    if (locked && !broken) {
      // What a failed import built in the scratch schema goes now, not at the next import.
      await clearScratch(client).catch(() => undefined);
      await releaseImportLock(client).catch(() => (broken = true));
    }
    await releasePgClient(knex, client, broken);
  }
}

async function countRejected(client: Client, spec: DatasetFile): Promise<number> {
  const result = await client.query<{ n: string }>(`select count(*) as n from ${stagingTable(spec)} where rejected`);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * After a merge the planner needs fresh statistics (a replaced table has them
 * already), and the trigram index of company names its pending list merged (only
 * autovacuum would otherwise do it, and until then the planner prices the index too
 * high to use it).
 */
async function refreshPlannerStatistics(client: Client, loaded: DatasetFile[]): Promise<void> {
  const tables = loaded.map((spec) => spec.table);
  if (tables.includes("companies"))
    await client.query("select gin_clean_pending_list('companies_name_trigram'::regclass)");
  if (tables.length) await client.query(`analyze ${tables.join(", ")}`);
}

/** The known files present in `dir`, in dependency order; throws when `dir` is not a readable folder. */
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
