import t from "tap";
import type { Knex } from "knex";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";

t.test("on the demo data, a one-coverage peer group reads programs through an index", async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), "cpb-plans-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await generateDataset(dir, { seed: "demo", asOf: AS_OF }); // the demo size of cpb dev
  const { knex } = await createTestDatabase(t);
  await importDataset(knex, dir);
  const server = await startTestServer(t, knex, { asOf: AS_OF });

  const busiest = await knex("programs")
    .select("coverage_id")
    .count("* as n")
    .groupBy("coverage_id")
    .orderBy("n", "desc")
    .first();
  const statements: { sql: string; bindings: Knex.RawBinding[] }[] = [];
  knex.on("query", (query: { sql: string; bindings: Knex.RawBinding[] }) => statements.push(query));
  const group = { naics: ["52", "54"], coverageId: busiest!.coverage_id, exposureRangeLow: 0, exposureRangeHigh: 1e15 };
  for (const operation of [
    "getassessmentdata",
    "getrpmdistributiondata",
    "getTotalProgramCount",
    "getTotalLossCount",
  ]) {
    const res = await fetch(`${server.url}${P}/assessment/${operation}`, {
      method: "POST",
      body: JSON.stringify(group),
    });
    t.equal(res.status, 200, operation);
  }
  const res = await fetch(`${server.url}${P}/lossdetails/getlimitadequacydata`, {
    method: "POST",
    body: JSON.stringify(group),
  });
  t.equal(res.status, 200);
  knex.removeAllListeners("query");
  t.equal(statements.length, 5, "one statement, one round trip, per operation");

  for (const [i, { sql, bindings }] of statements.entries()) {
    const rows = (await knex.raw(`explain ${sql.replace(/\$\d+/g, "?")}`, bindings)).rows as Record<string, string>[];
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    const reads = /from "programs"/.test(sql) ? "programs" : "loss_events";
    const ok = !/Seq Scan on (programs|loss_events)/.test(plan) && new RegExp(`Index.* on ${reads}`).test(plan);
    t.ok(ok, `statement ${i + 1} reads ${reads} through an index, never by a full scan`);
    if (!ok) t.comment(plan);
  }
});
