// Which database errors are outages (503, "try again") and which are not: each case is
// the error PostgreSQL or node-postgres really raises, not a hand-made object.
import t from "tap";
import knexFactory from "knex";
import pg from "pg";
import { freePort } from "../../src/dev/free-port.js";
import { isDatabaseUnavailable } from "../../src/store/database-errors.js";
import { testServerUrl } from "../helpers/database.js";

async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => undefined,
    (error: unknown) => error,
  );
}

t.test("an error the request caused is no outage", async (t) => {
  const knex = knexFactory({ client: "pg", connection: await testServerUrl(), pool: { min: 0, max: 1 } });
  t.teardown(() => knex.destroy());
  // The bind count travels as 16 bits: one more than 65535 is a protocol violation, 08P01.
  const tooMany = Array.from({ length: 65_536 }, (_, i) => i);
  const overflow = await errorOf(() => knex.raw(`select 1 where 1 in (${tooMany.map(() => "?").join(",")})`, tooMany));
  t.match(overflow, { code: "08P01" });
  t.equal(isDatabaseUnavailable(overflow), false, "08P01 protocol_violation");
  const syntax = await errorOf(() => knex.raw("select from where"));
  t.match(syntax, { code: "42601" });
  t.equal(isDatabaseUnavailable(syntax), false, "42601 syntax_error");
});

t.test("a server that is gone, or going, is an outage", async (t) => {
  const url = await testServerUrl();
  const victim = new pg.Client({ connectionString: url });
  const admin = new pg.Client({ connectionString: url });
  await Promise.all([victim.connect(), admin.connect()]);
  t.teardown(() => admin.end());
  const pid = ((await victim.query("select pg_backend_pid() as pid")).rows[0] as { pid: number }).pid;
  // The server says why (57P01), then the socket closes ("Connection terminated unexpectedly").
  const events: unknown[] = [];
  const closed = new Promise<void>((resolve) => victim.on("error", (error) => events.push(error) === 2 && resolve()));
  await admin.query("select pg_terminate_backend($1)", [pid]);
  await closed;
  t.match(events, [{ code: "57P01" }, { message: /Connection terminated/ }]);
  for (const error of events) t.equal(isDatabaseUnavailable(error), true, String(error));
  const after = await errorOf(() => victim.query("select 1"));
  t.equal(isDatabaseUnavailable(after), true, `a query on the lost connection: ${String(after)}`);

  const nowhere = new URL(url);
  nowhere.port = String(await freePort());
  const refused = await errorOf(async () => {
    const client = new pg.Client({ connectionString: nowhere.toString() });
    await client.connect();
  });
  t.match(refused, { code: "ECONNREFUSED" });
  t.equal(isDatabaseUnavailable(refused), true, "connection refused");
});
