import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import type { Client, DatabaseError } from "pg";
import type { DatasetFile } from "./dataset-files.js";
import { chooseReplacements } from "./rebuild-plan.js";
import { DirectLoadDeclined } from "./import-errors.js";
import type { ValidatorOptions } from "./row-validation.js";
import { writeCopyText, type ProgressListener } from "./staging.js";
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
  const texts = new CopyTexts(load);
  try {
    // Every file the whole content of its table: the stored rows are replaced, or none are stored.
    const chosen = await chooseReplacements(client, present, (_, stored) => replace || stored === 0);
    const stored = present.map((spec) => chosen.get(spec.table));
    if (stored.includes(undefined)) throw new DirectLoadDeclined("a table cannot be replaced");
    // Over stored rows a file must say everything: a restated row keeps nothing of the stored one.
    await texts.start(present.map((_, i) => ({ direct: true, everyColumn: stored[i]! > 0 })));
    const replacing = new Map(present.map((spec) => [spec.table, replacementName(spec)]));
    const replacements: Replacement[] = [];
    for (const [i, spec] of present.entries()) {
      await load.timed(i, async () => {
        const replacement = await createReplacement(client, spec);
        const text = await texts.ready(i);
        const columns = spec.columns.map((column) => column.column).join(", ");
        await pipeline(createReadStream(text.path), client.query(copyFrom(`copy ${replacement.table} (${columns}) from stdin`)));
        await rm(text.path);
        files[i]!.read = text.rows;
        await completeReplacement(client, replacement, replacing);
        Object.assign(files[i]!, await countRestated(client, spec, replacement.table, text.rows, stored[i]!));
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
  } finally {
    await texts.discard();
  }
}

/**
 * The files as COPY text, written to a scratch folder one after the other, in file
 * order, from the start of the load: Node reads and checks the next file while
 * PostgreSQL loads and indexes the one before, so the two work at once (the CSV
 * reading, not the COPY, is the slower). On disk (TMPDIR), so memory stays flat;
 * each text is removed once copied.
 */
class CopyTexts {
  private folder: string | undefined;
  private readonly abort = new AbortController();
  private texts: Promise<{ path: string; rows: number }>[] = [];

  constructor(private readonly load: DirectLoad) {}

  async start(options: readonly ValidatorOptions[]): Promise<void> {
    const folder = await mkdtemp(path.join(tmpdir(), "cpb-import-"));
    this.folder = folder;
    let previous: Promise<unknown> = Promise.resolve();
    this.texts = this.load.present.map((spec, i) => {
      const text = previous.then(async () => {
        const file = path.join(folder, `${spec.table}.copy`);
        const written = await writeCopyText(
          spec,
          path.join(this.load.dir, spec.file),
          createWriteStream(file),
          { ...options[i], signal: this.abort.signal },
          (...progress) => this.load.onProgress?.(spec.file, ...progress),
        );
        return { path: file, rows: written.rows };
      });
      text.catch(() => undefined); // awaited in ready(), unless the load stops before
      previous = text;
      return text;
    });
  }

  ready(i: number): Promise<{ path: string; rows: number }> {
    return this.texts[i]!;
  }

  async discard(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.texts);
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
  }
}

const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

