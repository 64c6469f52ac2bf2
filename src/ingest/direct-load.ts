import path from "node:path";
import type { Client, DatabaseError } from "pg";
import type { DatasetFile } from "./dataset-files.js";
import { chooseReplacements } from "./rebuild-plan.js";
import { DirectLoadDeclined } from "./row-validation.js";
import { copyFile, type ProgressListener } from "./staging.js";
import { completeReplacement, countRestated, createReplacement, replacementName, type Replacement } from "./table-rebuild.js";
import { swapIn } from "./table-swap.js";

export interface DirectLoad {
  client: Client;
  dir: string;
  present: readonly DatasetFile[];
  replace: boolean;
  /** Per present file: counts, written here. */
  files: { read: number; inserted: number; updated: number; deleted: number }[];
  timed(i: number, work: () => Promise<void>): Promise<void>;
  onProgress?: (file: string, ...progress: Parameters<ProgressListener>) => void;
}

/**
 * The fast road of an import that makes every present file the whole content of its
 * table (--replace, or a first load): each file is copied straight into its table's
 * replacement, as PostgreSQL's own raw load would, with no staging table and no
 * checks between rows. Then the checks are the replacements' own keys, built anyway:
 * the primary key refuses a repeated id, the foreign keys a reference to no row of
 * the final state (a LOB of another coverage included), exactly the rules of
 * row-checks.ts when no field is refused. Returns false, with everything undone to a
 * savepoint, at the first refused field, a key that fails, or a table that cannot be
 * replaced: the import then stages and checks every row, to name every bad one.
 */
export async function loadDirectly(load: DirectLoad): Promise<boolean> {
  const { client, present, replace, files } = load;
  await client.query("savepoint cpb_direct");
  try {
    const chosen = await chooseReplacements(client, present, present.map(() => Infinity), replace);
    const stored = present.map((spec) => chosen.get(spec.table));
    if (stored.some((rows) => rows === undefined || (rows > 0 && !replace))) throw new DirectLoadDeclined("a table would be merged");
    const replacing = new Map(present.map((spec) => [spec.table, replacementName(spec)]));
    const replacements: Replacement[] = [];
    for (const [i, spec] of present.entries()) {
      await load.timed(i, async () => {
        const replacement = await createReplacement(client, spec);
        const columns = spec.columns.map((column) => column.column).join(", ");
        const { rows } = await copyFile(
          client,
          spec,
          path.join(load.dir, spec.file),
          `copy ${replacement.table} (${columns}) from stdin`,
          // Over stored rows a file must say everything: a restated row keeps nothing of the stored one.
          { direct: true, everyColumn: stored[i]! > 0 },
          (...progress) => load.onProgress?.(spec.file, ...progress),
        );
        files[i]!.read = rows;
        await completeReplacement(client, replacement, replacing);
        Object.assign(files[i]!, await countRestated(client, spec, replacement.table, rows, stored[i]!));
        replacements.push(replacement);
      });
    }
    await swapIn(client, replacements);
    await client.query("release savepoint cpb_direct");
    return true;
  } catch (error) {
    const code = (error as DatabaseError).code;
    if (!(error instanceof DirectLoadDeclined) && code !== UNIQUE_VIOLATION && code !== FOREIGN_KEY_VIOLATION) throw error;
    await client.query("rollback to savepoint cpb_direct");
    for (const file of files) Object.assign(file, { read: 0, inserted: 0, updated: 0, deleted: 0 });
    return false;
  }
}

const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

