import type { Knex } from "knex";
import path from "node:path";
import pg, { type Client, type DatabaseError } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { DatasetFile } from "./dataset-files.js";
import { DirectLoadDeclined } from "./import-errors.js";
import { clearScratch } from "./import-scratch.js";
import { chooseReplacements } from "./rebuild-plan.js";
import { writeCopyText, type ProgressListener } from "./staging.js";
import {
  completeReplacement,
  countRestated,
  createReplacement,
  referenceFrom,
  type Replacement,
} from "./table-rebuild.js";

export interface DirectLoad {
  knex: Knex;
  /** The import's own connection: it holds the import lock, and cleans up. */
  client: Client;
  dir: string;
  present: readonly DatasetFile[];
  replace: boolean;
  /** Per present file: counts, written here. */
  files: { read: number; inserted: number; updated: number; deleted: number }[];
  timed(i: number, work: () => Promise<void>): Promise<void>;
  onProgress?: (file: string, ...progress: Parameters<ProgressListener>) => void;
}

/** How many connections build replacements at once: PostgreSQL's work, not Node's, is the longer. */
const BUILDERS = 2;

/**
 * The fast road of an import that makes every present file the whole content of its
 * table (--replace, or a first load). Each file is copied straight into its table's
 * replacement in the scratch schema, as PostgreSQL's own raw load would, with no
 * staging table and no checks between rows; then the replacement gets its indexes and
 * keys, then, once the tables it refers to have theirs, its foreign keys. Those keys
 * are the checks between rows: the primary key refuses a repeated id, the foreign keys
 * a reference to no row of the final state (a LOB of another coverage included),
 * exactly the rules of row-checks.ts when no field is refused.
 *
 * Two connections build at once (Node reads one file at a time; PostgreSQL indexes one
 * table while the next is copied), outside the import's transaction: the replacements
 * are committed in the scratch schema, and nobody reads them until the import's
 * transaction moves them in (table-swap.ts). Returns them, or undefined, with the
 * scratch schema emptied, at the first refused field, a key that fails, or a table that
 * cannot be replaced: the import then stages and checks every row, to name every bad one.
 */
export async function loadDirectly(load: DirectLoad): Promise<Replacement[] | undefined> {
  const { client, present, replace } = load;
  // Every file the whole content of its table: the stored rows are replaced, or none are stored.
  const chosen = await chooseReplacements(client, present, (_, stored) => replace || stored === 0);
  if (chosen.size < present.length) return undefined;
  const builders = await openBuilders(load.knex, Math.min(BUILDERS, present.length));
  const run = new BuildRun(load, chosen);
  try {
    await Promise.allSettled(builders.map((builder) => run.lane(builder)));
    return run.replacements();
  } catch (error) {
    const code = (error as DatabaseError).code;
    if (!(error instanceof DirectLoadDeclined) && code !== UNIQUE_VIOLATION && code !== FOREIGN_KEY_VIOLATION)
      throw error;
    for (const file of load.files) Object.assign(file, { read: 0, inserted: 0, updated: 0, deleted: 0 });
    return undefined;
  } finally {
    await Promise.all(builders.map((builder) => builder.end().catch(() => undefined)));
    if (!run.succeeded) await clearScratch(client);
  }
}

const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

/** Connections of their own; if one cannot be opened, none is left open. */
async function openBuilders(knex: Knex, count: number): Promise<Client[]> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => openBuilder(knex)));
  const failed = opened.find((result) => result.status === "rejected");
  if (!failed) return opened.map((result) => (result as PromiseFulfilledResult<Client>).value);
  await Promise.all(
    opened.map((result) => (result.status === "fulfilled" ? result.value.end().catch(() => undefined) : undefined)),
  );
  throw failed.reason;
}

/** A connection of its own, to the import's database. */
async function openBuilder(knex: Knex): Promise<Client> {
  const client = new pg.Client((knex.client as { config: { connection: pg.ClientConfig } }).config.connection);
  await client.connect();
  try {
    // Index builds sort whole tables: give them memory on this connection only.
    await client.query("set maintenance_work_mem = '256MB'");
    await client.query("set work_mem = '256MB'");
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** One direct load's files, taken in file order by whichever builder is free. */
class BuildRun {
  succeeded = false;
  private next = 0;
  private readonly built: (Replacement | undefined)[] = [];
  /** Per table: settles when its replacement has its keys (what foreign keys to it need). */
  private readonly keyed = new Map<string, { promise: Promise<void>; resolve(): void; reject(error: unknown): void }>();
  /** The tables this load replaces: foreign keys to them point at their replacements. */
  private readonly replacing: ReadonlySet<string>;
  /** Node reads one file at a time: a second read would only slow the first. */
  private reading: Promise<unknown> = Promise.resolve();
  private readonly abort = new AbortController();
  private failure: unknown;

  constructor(
    private readonly load: DirectLoad,
    private readonly stored: ReadonlyMap<string, number>,
  ) {
    this.replacing = new Set(stored.keys());
    for (const spec of load.present) {
      let settle!: { resolve(): void; reject(error: unknown): void };
      const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      promise.catch(() => undefined);
      this.keyed.set(spec.table, { promise, ...settle });
    }
  }

  async lane(builder: Client): Promise<void> {
    while (this.failure === undefined && this.next < this.load.present.length) {
      const i = this.next++;
      try {
        await this.load.timed(i, () => this.build(builder, i));
      } catch (error) {
        this.fail(error);
      }
    }
  }

  /** The replacements, in file order; throws what stopped the run, if anything did. */
  replacements(): Replacement[] {
    if (this.failure !== undefined) throw this.failure;
    this.succeeded = true;
    return this.built.map((replacement) => replacement!);
  }

  private async build(builder: Client, i: number): Promise<void> {
    const spec = this.load.present[i]!;
    const stored = this.stored.get(spec.table)!;
    const replacement = await createReplacement(builder, spec);
    this.stopIfFailed();
    const columns = spec.columns.map((column) => column.column).join(", ");
    const text = await this.readAlone(() =>
      writeCopyText(
        spec,
        path.join(this.load.dir, spec.file),
        builder.query(copyFrom(`copy ${replacement.table} (${columns}) from stdin`)),
        // Over stored rows a file must say everything: a restated row keeps nothing of the stored one.
        { direct: true, everyColumn: stored > 0, signal: this.abort.signal },
        (...progress) => this.load.onProgress?.(spec.file, ...progress),
      ),
    );
    this.load.files[i]!.read = text.rows;
    this.stopIfFailed();
    await completeReplacement(builder, replacement);
    this.keyed.get(spec.table)!.resolve();
    const parents = replacement.definition.foreignKeys
      .map((key) => key.references)
      .filter((table) => this.replacing.has(table));
    await Promise.all(parents.map((table) => this.keyed.get(table)!.promise));
    this.stopIfFailed();
    await referenceFrom(builder, replacement, this.replacing);
    Object.assign(this.load.files[i]!, await countRestated(builder, spec, replacement.table, text.rows, stored));
    this.built[i] = replacement;
  }

  private readAlone<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.reading.then(work);
    this.reading = turn.catch(() => undefined);
    return turn;
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    // The other builder's read stops here. Its statement is let finish, not cancelled:
    // a cancel lands on whatever the connection runs when it arrives, and one that
    // landed outside every listener once hung a CI run. The scratch is cleared anyway.
    this.abort.abort();
    for (const { reject } of this.keyed.values()) reject(error);
  }

  private stopIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
