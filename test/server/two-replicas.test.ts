// Two replicas on one database, each with its own version watcher and answer cache:
// after an import commits, both answer with the new data within a second, and once a
// replica has given a new answer it never gives an old one again.
import { pino } from "pino";
import t from "tap";
import { createDatasetVersionWatcher } from "../../src/store/dataset-version-watcher.js";
import { databaseWithNextImport, EVERY_SECTOR_GROUP } from "../helpers/next-import.js";
import { startTestServer } from "../helpers/server.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";
const REQUEST = {
  path: "assessment/getassessmentdata",
  body: { ...EVERY_SECTOR_GROUP, limit: 5_000_000, premium: 50_000, retention: 100_000 },
};

t.test("two replicas answer the new data within a second of the commit, never the old after the new", async (t) => {
  const { knex, url, importNext } = await databaseWithNextImport(t, "replicas", {
    companies: 200,
    programs: 2_000,
    losses: 300,
    asOf: AS_OF,
  });

  const log = pino({ level: "silent" });
  const replicas = await Promise.all(
    [1, 2].map(async () => {
      const watcher = createDatasetVersionWatcher({ connectionString: url, log });
      t.teardown(() => watcher.stop());
      await watcher.start();
      return startTestServer(t, knex, {
        asOf: AS_OF,
        datasetVersion: () => watcher.current(),
        answerCacheBytes: 1 << 20,
      });
    }),
  );
  const truth = await startTestServer(t, knex, { asOf: AS_OF }); // no cache: what the database says now
  const ask = async (base: string) => {
    const res = await fetch(`${base}${P}/${REQUEST.path}`, { method: "POST", body: JSON.stringify(REQUEST.body) });
    return res.text();
  };
  const hits = async (base: string) =>
    ((await (await fetch(`${base}/readyz`)).json()) as { answerCache: { hits: number } }).answerCache.hits;

  const oldAnswer = await ask(truth.url);
  for (const replica of replicas) {
    t.equal(await ask(replica.url), oldAnswer);
    t.equal(await ask(replica.url), oldAnswer);
    t.equal(await hits(replica.url), 1, "the repeated request is answered from the replica's cache");
  }

  await importNext();
  const committed = performance.now();
  const newAnswer = await ask(truth.url);
  t.not(newAnswer, oldAnswer, "the import changes the answer");

  await Promise.all(
    replicas.map(async (replica, i) => {
      let newSince: number | undefined;
      let staleAfterNew = 0;
      while (performance.now() - committed < 1_500) {
        const answer = await ask(replica.url);
        const answeredAt = performance.now() - committed;
        t.ok(answer === oldAnswer || answer === newAnswer, "every answer is one version's");
        if (answer === newAnswer) newSince ??= answeredAt;
        else if (newSince !== undefined) staleAfterNew++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      t.ok(
        newSince !== undefined && newSince < 1_000,
        `replica ${i + 1} answered the new data ${Math.round(newSince ?? Infinity)} ms after the commit`,
      );
      t.equal(staleAfterNew, 0, `replica ${i + 1} never went back to the old answer`);
    }),
  );
});
