// Places at the admission gate (issue 51): a REST caller known at once (its token
// verified a moment ago) takes its place, running or queued, as its request's headers
// arrive, so that in a burst every request is placed or refused before any is read
// further; a caller whose token is not yet checked takes none until it is. A place is
// given up when its call ends before its turn. Shown on `cpb serve` over the SQL engine,
// one call running (its statement held on a lock the test takes) and a queue of one.
import { connect, type Socket } from "node:net";
import t, { type Test } from "tap";
import { createDatabase } from "../../src/store/database.js";
import { databaseWithNextImport, EVERY_SECTOR_GROUP } from "../helpers/next-import.js";
import { startServeProcess } from "../helpers/serve-process.js";

const AS_OF = "2026-08-31";
const PATH = "/commercialpolicybenchmark/v2.0/assessment/getassessmentdata";
const BODY = JSON.stringify({ ...EVERY_SECTOR_GROUP, limit: 5_000_000, premium: 50_000, retention: 100_000 });

t.test("a known caller holds its place from its headers on; an unchecked one only once checked", async (t) => {
  const { url } = await databaseWithNextImport(t, "gateplaces", {
    companies: 300,
    programs: 3_000,
    losses: 100,
    asOf: AS_OF,
  });
  const server = await startServeProcess(t, url, {
    PEER_INDEX: "off",
    BENCHMARK_AS_OF: AS_OF,
    ANSWER_CACHE_MB: "0",
    ANALYTICS_CONCURRENCY: "1",
    ANALYTICS_QUEUE: "1",
  });
  const ask = (token: string, body = BODY) =>
    fetch(`${server.base}${PATH}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body });
  const gate = async () =>
    ((await (await fetch(`${server.base}/readyz`)).json()) as { admission: { running: number; queued: number } })
      .admission;
  const until = async (want: { running: number; queued: number }, what: string) => {
    for (let i = 0; i < 100; i++) {
      const now = await gate();
      if (now.running === want.running && now.queued === want.queued) {
        t.pass(what);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    t.fail(what, { found: await gate(), wanted: want });
  };
  /** One call running, its statement held on the lock until `release`. */
  const oneRunning = async (t: Test) => {
    const release = await holdPrograms(t, url);
    const running = ask(server.token);
    await until({ running: 1, queued: 0 }, "one call runs, held on the lock");
    return { release, running };
  };
  t.equal((await ask(server.token)).status, 200, "the caller's token is verified once");

  await t.test("a known caller's headers alone hold its place; the next is refused at once", async (t) => {
    const { release, running } = await oneRunning(t);
    const withheld = headersOnly(t, server.port, server.token);
    await until({ running: 1, queued: 1 }, "a known caller is queued before its body arrives");
    const refused = await ask(server.token);
    t.equal(refused.status, 503, "the next known caller is refused");
    t.ok(Number(refused.headers.get("retry-after")) >= 1, "with Retry-After");
    const unchecked = await ask(await server.freshToken());
    t.equal(unchecked.status, 503, "and so is a caller not yet checked, at the door");
    withheld.socket.write(BODY);
    await release();
    t.equal((await running).status, 200);
    t.match(await withheld.answer, /^HTTP\/1\.1 200 /, "the queued caller is answered in its turn");
    await until({ running: 0, queued: 0 }, "the gate is empty again");
  });

  await t.test("while a turn is free, no place is held before the answer cache is asked", async (t) => {
    const withheld = headersOnly(t, server.port, server.token);
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.match(await gate(), { running: 0, queued: 0 }, "a known caller's headers took no turn");
    withheld.socket.write(BODY);
    t.match(await withheld.answer, /^HTTP\/1\.1 200 /, "it took its turn once read");
  });

  await t.test("a caller not yet checked holds no place while its body is awaited", async (t) => {
    const { release, running } = await oneRunning(t);
    const withheld = headersOnly(t, server.port, await server.freshToken());
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.match(await gate(), { queued: 0 }, "its headers took no place");
    const known = ask(server.token);
    await until({ running: 1, queued: 1 }, "a known caller takes the queue's one place");
    withheld.socket.write(BODY);
    t.match(await withheld.answer, /^HTTP\/1\.1 503 /, "the unchecked caller, checked, finds the gate full");
    await release();
    t.equal((await running).status, 200);
    t.equal((await known).status, 200);
  });

  await t.test("a place is given up when its call ends before its turn", async (t) => {
    const { release, running } = await oneRunning(t);
    const gone = headersOnly(t, server.port, server.token);
    await until({ running: 1, queued: 1 }, "a known caller is queued");
    gone.socket.destroy();
    await until({ running: 1, queued: 0 }, "its caller went away: its place is free");

    const malformed = await ask(server.token, "{");
    t.equal(malformed.status, 400, "a body that is not JSON is answered at once");
    t.match(await gate(), { queued: 0 }, "and its place freed");
    await release();
    t.equal((await running).status, 200);
    await until({ running: 0, queued: 0 }, "nothing left at the gate");
  });
});

/** A POST whose headers are sent and whose body is withheld until `socket.write(body)`; `answer` is the raw answer. */
function headersOnly(t: Test, port: number, token: string): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  t.teardown(() => void socket.destroy());
  socket.write(
    `POST ${PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\nconnection: close\r\n\r\n`,
  );
  const answer = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
    socket.on("close", () => resolve(text));
    socket.on("error", () => undefined);
  });
  return { socket, answer };
}

/** Holds an exclusive lock on programs: a peer-group statement waits on it until the returned release. */
async function holdPrograms(t: Test, url: string): Promise<() => Promise<void>> {
  const knex = createDatabase(url, { poolMax: 1 });
  const trx = await knex.transaction();
  await trx.raw("lock table programs in access exclusive mode");
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await trx.rollback().catch(() => undefined);
    await knex.destroy();
  };
  t.teardown(release);
  return release;
}
