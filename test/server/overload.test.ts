// Admission control, deadlines and cancellation (issue 14), on `cpb serve` in its own
// process over the SQL engine, where a peer-group call is real PostgreSQL work:
// - beyond the admission queue, a peer-group call is refused at once (503 with
//   Retry-After), every other answer is a 200, and /healthz and lookups stay fast;
// - a call whose deadline passes is answered deadline_exceeded and its statement is
//   cancelled; a caller that goes away has its statement cancelled too.
// A statement made to wait on a lock the test holds shows, in pg_stat_activity, whether
// PostgreSQL is still working for a request.
import { status as GrpcStatus } from "@grpc/grpc-js";
import t from "tap";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { createDatabase } from "../../src/store/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { databaseWithNextImport, EVERY_SECTOR_GROUP } from "../helpers/next-import.js";
import { startServeProcess } from "../helpers/serve-process.js";

const AS_OF = "2026-08-31";
const P = "/commercialpolicybenchmark/v2.0";
const BROAD = { ...EVERY_SECTOR_GROUP, limit: 5_000_000, premium: 50_000, retention: 100_000 };
/**
 * "At once" here: far below the 8 s statement timeout that overload used to be shed by,
 * yet safe while other test files load the machine. The 100 ms figures of issue 14 are
 * measured on a quiet machine by `npm run bench:overload`.
 */
const AT_ONCE_MS = 1_000;

t.test("overload, deadlines and callers that go away", async (t) => {
  const { knex, url } = await databaseWithNextImport(t, "overload", {
    companies: 2_000,
    programs: 40_000,
    losses: 2_000,
    asOf: AS_OF,
  });
  const companyId = String((await knex("companies").min("company_id as id").first())!.id);
  const server = await startServeProcess(t, url, {
    PEER_INDEX: "off",
    BENCHMARK_AS_OF: AS_OF,
    ANSWER_CACHE_MB: "0",
    ANALYTICS_CONCURRENCY: "1",
    ANALYTICS_QUEUE: "2",
  });
  const auth = { authorization: `Bearer ${server.token}` };
  const broad = () =>
    fetch(`${server.base}${P}/assessment/getassessmentdata`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(BROAD),
    });

  await t.test(
    "32 callers of a broad peer group: 200s, or 503s at once with Retry-After; health and lookups stay fast",
    async (t) => {
      const until = performance.now() + 3_000;
      const answers: { status: number; ms: number; retryAfter: string | null }[] = [];
      const callers = Array.from({ length: 32 }, async () => {
        while (performance.now() < until) {
          const started = performance.now();
          const res = await broad();
          await res.arrayBuffer();
          answers.push({
            status: res.status,
            ms: performance.now() - started,
            retryAfter: res.headers.get("retry-after"),
          });
          if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
      const probes = { healthz: [] as number[], lookup: [] as number[] };
      const probing = (async () => {
        while (performance.now() < until) {
          for (const [key, path] of [
            ["healthz", "/healthz"],
            ["lookup", `${P}/company/${companyId}`],
          ] as const) {
            const started = performance.now();
            const res = await fetch(`${server.base}${path}`, { headers: auth });
            await res.arrayBuffer();
            t.equal(res.status, 200, `${key} answers`);
            probes[key].push(performance.now() - started);
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await Promise.all([...callers, probing]);
      const refused = answers.filter((a) => a.status === 503);
      const served = answers.filter((a) => a.status === 200);
      t.same(
        answers.filter((a) => a.status !== 200 && a.status !== 503),
        [],
        "every answer a 200 or a 503",
      );
      t.ok(served.length > 0 && refused.length > 0, `${served.length} served, ${refused.length} refused`);
      t.ok(
        refused.every((a) => a.retryAfter !== null && Number(a.retryAfter) >= 1),
        "every 503 says when to retry",
      );
      t.ok(
        Math.max(...refused.map((a) => a.ms)) < AT_ONCE_MS,
        `refused within ${Math.round(Math.max(...refused.map((a) => a.ms)))} ms`,
      );
      t.ok(
        Math.max(...probes.healthz) < AT_ONCE_MS,
        `/healthz within ${Math.round(Math.max(...probes.healthz))} ms throughout`,
      );
      t.ok(
        Math.max(...probes.lookup) < AT_ONCE_MS,
        `a company lookup within ${Math.round(Math.max(...probes.lookup))} ms throughout`,
      );
    },
  );

  await t.test("a passed deadline is not computed; one that passes mid-statement cancels it", async (t) => {
    const held = await holdPrograms(t, url);
    const connect = await fetch(`${server.base}/commercialpolicybenchmark.v2.AssessmentService/GetTotalProgramCount`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "connect-timeout-ms": "300" },
      body: JSON.stringify(BROAD),
    });
    t.equal(connect.status, 504, "Connect: deadline_exceeded once its 300 ms are up, not when the lock goes");
    t.match(await connect.json(), { code: "deadline_exceeded" });
    t.equal(await waitForNoStatement(held), true, "its statement was cancelled");

    const grpc = await callWithGrpcJs(server.base, AssessmentService.method.getTotalProgramCount, BROAD, auth, {
      deadline: Date.now() + 300,
    }).then(
      () => undefined,
      (error: { code: number }) => error.code,
    );
    t.equal(grpc, GrpcStatus.DEADLINE_EXCEEDED, "gRPC: grpc-timeout honoured");
    t.equal(await waitForNoStatement(held), true, "its statement was cancelled");
  });

  await t.test("a REST caller that goes away has its statement cancelled", async (t) => {
    const held = await holdPrograms(t, url);
    const abort = new AbortController();
    const answer = fetch(`${server.base}${P}/assessment/getassessmentdata`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(BROAD),
      signal: abort.signal,
    }).catch(() => "aborted");
    t.equal(await waitForStatement(held), true, "the request's statement waits on the test's lock");
    abort.abort();
    t.equal(await answer, "aborted");
    t.equal(await waitForNoStatement(held), true, "its statement was cancelled when the caller went away");
  });

  // The server keeps serving after all that.
  const after = await broad();
  t.equal(after.status, 200);
});

/** Holds an exclusive lock on programs until the test ends; reports whether a statement of the server waits on it. */
async function holdPrograms(t: { teardown(fn: () => unknown): void }, url: string) {
  const knex = createDatabase(url, { poolMax: 2 });
  const trx = await knex.transaction();
  await trx.raw("lock table programs in access exclusive mode");
  t.teardown(async () => {
    await trx.rollback().catch(() => undefined);
    await knex.destroy();
  });
  return async () => {
    const { rows } = await knex.raw<{ rows: unknown[] }>(
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%programs%'",
    );
    return rows.length > 0;
  };
}

async function waitForStatement(waiting: () => Promise<boolean>, want = true): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if ((await waiting()) === want) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function waitForNoStatement(waiting: () => Promise<boolean>): Promise<boolean> {
  return waitForStatement(waiting, false);
}
