import t from "tap";
import { createTestDatabase } from "../helpers/database.js";

t.test("migrations create the schema with dataset version 0", async (t) => {
  const { knex } = await createTestDatabase(t);
  const row = await knex("dataset_version").first("version");
  t.equal(Number(row.version), 0);
  const down = await knex.migrate.rollback(undefined, true);
  t.ok(down, "rolls back");
  const tables = await knex.raw(
    `select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name = 'companies'`,
  );
  t.equal(tables.rows[0].n, 0, "down drops the tables");
});
