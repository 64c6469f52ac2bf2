import t from "tap";
import { createDatabase } from "../../src/store/database.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { proxyDatabase } from "../helpers/tcp-proxy.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";

t.test("database gone or hung: 503 with Retry-After within seconds, /healthz 200; it recovers by itself", async (t) => {
  const { knex: setup, url } = await createTestDatabase(t);
  await insertLookupFixture(setup);
  const { proxy, url: proxied } = await proxyDatabase(t, url);
  const knex = createDatabase(proxied, { poolMax: 2, queryTimeoutMs: 1_000 });
  t.teardown(() => knex.destroy());
  const server = await startTestServer(t, knex);
  const company = `${server.url}/commercialpolicybenchmark/v2.0/company/1001`;

  t.equal((await fetch(company)).status, 200, "served through the proxy");
  await proxy.cut();

  const started = Date.now();
  const res = await fetch(company);
  t.equal(res.status, 503);
  t.equal(res.headers.get("retry-after"), "2");
  t.match(await res.json(), { status: 503, code: "unavailable" });
  t.ok(Date.now() - started < 8_000, "answered within seconds, no hang");
  t.equal((await fetch(`${server.url}/readyz`)).status, 503);
  t.equal((await fetch(`${server.url}/healthz`)).status, 200);

  await proxy.restore();
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await fetch(company)).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal(status, 200, "the same process serves again");
  t.equal((await fetch(`${server.url}/readyz`)).status, 200);

  // A database that stops answering, its connections still open (a hung server).
  proxy.freeze();
  const hungStarted = Date.now();
  const hung = await fetch(company);
  t.equal(hung.status, 503, "a hung database: 503, not a hang");
  t.ok(Date.now() - hungStarted < 5_000, "within seconds");
  proxy.thaw();
  let after = 0;
  for (let i = 0; i < 50 && after !== 200; i++) {
    after = (await fetch(company)).status;
    if (after !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal(after, 200, "serves again once the database answers");
});
