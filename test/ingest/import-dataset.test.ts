import type { Knex } from "knex";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import t from "tap";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { formatReject } from "../../src/ingest/reject-report.js";
import { ImportRejectedError, importDataset } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { readCsv } from "./helpers/read-csv.js";
import { createTempDir } from "./helpers/temp-dir.js";

const TABLES = ["coverages", "lines_of_business", "companies", "programs", "loss_events"] as const;

async function tableCounts(knex: Knex): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = Number((await knex(table).count({ n: "*" }).first())?.n);
  return counts;
}

async function datasetVersion(knex: Knex): Promise<number> {
  return Number((await knex("dataset_version").first("version"))?.version);
}

/** Two decimals, the way numeric(20,2) stores them; null for an empty field. */
function money(text: string | undefined): string | null {
  return text === undefined || text === "" ? null : Number(text).toFixed(2);
}

t.test("a generated data set round-trips, and importing it again updates every row", async (t) => {
  const { knex, url } = await createTestDatabase(t);
  const dir = await createTempDir(t);
  await generateDataset(dir, { companies: 300, programs: 1500, losses: 300, seed: "round-trip", asOf: "2026-11-22" });

  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  t.teardown(() => listener.end());
  const notified = new Promise<string | undefined>((resolve) =>
    listener.once("notification", (message) => resolve(message.payload)),
  );
  await listener.query("listen cpb_dataset_version");

  const first = await importDataset(knex, dir);
  t.equal(first.version, 1);
  t.same(
    first.files.map(({ file, read, inserted, updated }) => ({ file, read, inserted, updated })),
    [
      { file: "coverages.csv", read: 10, inserted: 10, updated: 0 },
      { file: "lines_of_business.csv", read: 35, inserted: 35, updated: 0 },
      { file: "companies.csv", read: 300, inserted: 300, updated: 0 },
      { file: "programs.csv", read: 1500, inserted: 1500, updated: 0 },
      { file: "losses.csv", read: 300, inserted: 300, updated: 0 },
    ],
  );
  for (const file of first.files) t.ok(file.elapsedMs >= 0, `${file.file} is timed`);
  t.same(await tableCounts(knex), {
    coverages: 10,
    lines_of_business: 35,
    companies: 300,
    programs: 1500,
    loss_events: 300,
  });
  t.equal(await datasetVersion(knex), 1);
  t.equal(await notified, "1", "servers hear of the new version");

  // A company whose name needs CSV quoting or case mapping comes back intact.
  const companies = await readCsv(dir, "companies.csv");
  const tricky = companies.filter((row) => /[",]|[^\x20-\x7e]/.test(row.company_name as string));
  t.ok(tricky.length > 0, "the set has names with quotes, commas or non-ASCII letters");
  for (const csv of tricky.slice(0, 20)) {
    const row = await knex("companies").where("company_id", csv.company_id).first();
    t.same(
      {
        company_name: row.company_name,
        organization_type: row.organization_type,
        naics: row.naics,
        revenues: row.revenues,
        employees: row.employees,
        market_cap: row.market_cap,
      },
      {
        company_name: csv.company_name,
        organization_type: csv.organization_type,
        naics: csv.naics || null,
        revenues: money(csv.revenues),
        employees: csv.employees || null,
        market_cap: money(csv.market_cap),
      },
      `company ${csv.company_id} ${csv.company_name}`,
    );
  }

  const [program] = await readCsv(dir, "programs.csv");
  const stored = await knex("programs").where("program_id", program?.program_id).first();
  t.equal(stored.limit_amount, money(program?.limit), "limit lands in limit_amount");
  t.equal(stored.premium, money(program?.premium));

  const second = await importDataset(knex, dir);
  t.equal(second.version, 2);
  for (const file of second.files) {
    t.equal(file.inserted, 0, `${file.file}: nothing new`);
    t.equal(file.updated, file.read, `${file.file}: every row updated`);
  }
  t.equal(await datasetVersion(knex), 2);
  t.same(await tableCounts(knex), {
    coverages: 10,
    lines_of_business: 35,
    companies: 300,
    programs: 1500,
    loss_events: 300,
  });
});

t.test("a program referring to a missing company fails the whole import and changes nothing", async (t) => {
  const { knex } = await createTestDatabase(t);
  const good = await createTempDir(t);
  await generateDataset(good, { companies: 20, programs: 50, losses: 10, seed: 3, asOf: "2026-11-22" });
  await importDataset(knex, good);
  const before = await tableCounts(knex);
  const companyBefore = await knex("companies").where("company_id", 1).first();

  const bad = await createTempDir(t);
  await writeFile(
    path.join(bad, "companies.csv"),
    "company_id,company_name,organization_type\n1,Renamed Inc.,PRV\n21,New Co,PRV\n",
  );
  await writeFile(
    path.join(bad, "programs.csv"),
    "program_id,company_id,coverage_id,line_of_business_id,effective_date\n51,21,1,1,2026-01-01\n52,999,1,1,2026-01-01\n",
  );
  const refused = await importDataset(knex, bad).catch((error: unknown) => error);
  t.ok(refused instanceof ImportRejectedError, "refused whole");
  t.same((refused as ImportRejectedError).summary.rejects.first.map(formatReject), [
    'programs.csv:3: company_id "999": no company 999 in the import or the database',
  ]);
  t.same(await tableCounts(knex), before, "no table changed");
  t.same(
    await knex("companies").where("company_id", 1).first(),
    companyBefore,
    "the earlier file of the import was rolled back",
  );
  t.equal(await datasetVersion(knex), 1, "the version did not move");

  // The connection went back to the pool in a usable state.
  const again = await importDataset(knex, good);
  t.equal(again.version, 2);
});

t.test("a malformed file fails during COPY and leaves the connection usable", async (t) => {
  const { knex } = await createTestDatabase(t);
  const dir = await createTempDir(t);
  await writeFile(path.join(dir, "coverages.csv"), "coverage_id,name\n1,Cyber\n");
  await writeFile(path.join(dir, "companies.csv"), 'company_id,company_name,organization_type\n1,"Unterminated,PRV\n');
  await t.rejects(importDataset(knex, dir));
  t.same(await tableCounts(knex), { coverages: 0, lines_of_business: 0, companies: 0, programs: 0, loss_events: 0 });
  t.equal(await datasetVersion(knex), 0);

  await writeFile(path.join(dir, "companies.csv"), "company_id,company_name,organization_type\n1,Fixed,PRV\n");
  const summary = await importDataset(knex, dir);
  t.equal(summary.version, 1);
  t.same(await tableCounts(knex), { coverages: 1, lines_of_business: 0, companies: 1, programs: 0, loss_events: 0 });
});

t.test("a folder that does not exist is an error, not an empty import", async (t) => {
  const { knex } = await createTestDatabase(t);
  await t.rejects(importDataset(knex, path.join(await createTempDir(t), "missing")), { code: "ENOENT" });
  t.equal(await datasetVersion(knex), 0);
});
