import pg from "pg";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "./helpers/temp-dir.js";

/**
 * A rebuilt table is swapped in under an exclusive lock. Asked for while a long query
 * reads the table, such a lock would queue every later reader behind it until that
 * query ends; the import asks in short tries instead, giving way between them.
 */
t.test(
  "while a long query holds a table the import replaces, other readers are not queued behind the import",
  async (t) => {
    const { knex, url } = await createTestDatabase(t);
    const dir = await createTempDir(t, "cpb-readers-");
    await generateDataset(dir, { companies: 200, programs: 2_000, losses: 200, seed: "readers", asOf: "2026-11-22" });
    await importDataset(knex, dir);

    const longReader = new pg.Client({ connectionString: url });
    const reader = new pg.Client({ connectionString: url });
    await Promise.all([longReader.connect(), reader.connect()]);
    t.teardown(() => Promise.all([longReader.end(), reader.end()]));
    // A report that holds programs for 2 s: its transaction keeps the table's share lock.
    await longReader.query("begin");
    await longReader.query("select count(*) from programs");
    const released = new Promise((resolve) => setTimeout(resolve, 2_000)).then(() => longReader.query("commit"));

    const importing = importDataset(knex, dir, { replace: true });
    let done = false;
    void importing.finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const started = performance.now();
      await reader.query("select program_id from programs limit 1");
      waits.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const summary = await importing;
    await released;

    t.equal(summary.version, 2, "the import went through once the long query was done");
    const longest = Math.max(...waits);
    t.comment(`${waits.length} reads during the import, the longest ${Math.round(longest)} ms`);
    t.ok(waits.length > 20, "readers kept reading during the import");
    // One try holds readers for at most 200 ms; a plain lock request would have held them 2 s.
    t.ok(longest < 1_000, `no read waited a second or more (longest ${Math.round(longest)} ms)`);
  },
);
