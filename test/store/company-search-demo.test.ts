import t from "tap";
import type { Knex } from "knex";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";

const P = "/commercialpolicybenchmark/v2.0";

t.test("company search on the demo directory", async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), "cpb-search-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await generateDataset(dir, { seed: "demo", programs: 0, losses: 0 }); // the demo's 20,000 companies
  const { knex } = await createTestDatabase(t);
  await importDataset(knex, dir);
  const server = await startTestServer(t, knex);
  const page = async (query: string) => {
    const res = await fetch(`${server.url}${P}/company?${query}`);
    t.equal(res.status, 200, query);
    return (await res.json()) as { totalCount: number; hasMoreResults: boolean; data: { id: number }[] };
  };

  t.test("walking the pages returns every matching company exactly once", async (t) => {
    for (const [filter, orderBy] of <[string, string][]>[
      ["", ""],
      ["", "OrganizationType desc"],
      ["contains(CompanyName,'an')", "CompanyName desc"],
      ["OrganizationType eq 'PUB' or startswith(CompanyName,'b')", "OrganizationType,CompanyName"],
    ]) {
      const seen = new Map<number, number>();
      let total: number | undefined;
      for (let skip = 0; ; skip += 1000) {
        const body = await page(
          `$filter=${encodeURIComponent(filter)}&$orderBy=${encodeURIComponent(orderBy)}&$top=1000&$skip=${skip}`,
        );
        total = body.totalCount;
        for (const row of body.data) seen.set(row.id, (seen.get(row.id) ?? 0) + 1);
        if (!body.hasMoreResults) break;
      }
      const expected = await countMatching(knex, filter);
      t.equal(total, expected, `${filter || "no filter"}: total`);
      t.equal(seen.size, expected, `${filter || "no filter"} by ${orderBy || "default"}: every row`);
      t.ok(
        [...seen.values()].every((n) => n === 1),
        "once each",
      );
    }
  });

  t.test("startswith and contains read the name indexes", async (t) => {
    const statements: { sql: string; bindings: Knex.RawBinding[] }[] = [];
    const listener = (query: { sql: string; bindings: Knex.RawBinding[] }) => statements.push(query);
    knex.on("query", listener);
    await page(`$filter=${encodeURIComponent("startswith(CompanyName,'atlantic')")}`);
    await page(`$filter=${encodeURIComponent("contains(CompanyName,'fairbank')")}`);
    await page(`$filter=${encodeURIComponent("endswith(CompanyName,'holdings')")}&$top=5`);
    knex.removeListener("query", listener);
    t.equal(statements.length, 3, "one statement per search");
    const plans = [];
    for (const { sql, bindings } of statements) {
      const rows = (await knex.raw(`explain ${sql.replace(/\$\d+/g, "?")}`, bindings)).rows as Record<string, string>[];
      plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
    }
    t.match(plans[0], /Index.*companies_(lower_name|name_order)/, "startswith: the btree on lower(name)");
    t.match(plans[1], /Bitmap Index Scan on companies_name_trigram/, "contains: the trigram index");
    t.match(plans[2], /Bitmap Index Scan on companies_name_trigram/, "endswith: the trigram index");
    for (const plan of plans) t.notMatch(plan, /Seq Scan on companies/, "never a full scan");
  });
});

/** The reference count, by the same rules, straight from the table (lower-casing in JavaScript). */
async function countMatching(knex: Knex, filter: string): Promise<number> {
  const rows = (await knex("companies").select("company_name", "organization_type")) as {
    company_name: string;
    organization_type: string;
  }[];
  const lower = (s: string) => s.toLowerCase();
  const tests: Record<string, (r: { company_name: string; organization_type: string }) => boolean> = {
    "": () => true,
    "contains(CompanyName,'an')": (r) => lower(r.company_name).includes("an"),
    "OrganizationType eq 'PUB' or startswith(CompanyName,'b')": (r) =>
      r.organization_type === "PUB" || lower(r.company_name).startsWith("b"),
  };
  return rows.filter(tests[filter]!).length;
}
