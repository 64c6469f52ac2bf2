// The fleet, as an operator deploys it (issue 48; docs/deployment.md): a PostgreSQL
// primary and a streaming hot standby, two `cpb serve` replicas reading the standby,
// Debian's HAProxy in front with deploy/haproxy.cfg as shipped, and a steady mixed load
// through it (REST GET and POST, lookups, search, gRPC). Scenarios, in order:
// - ready: both replicas UP, every protocol answers through the balancer, and every REST
//   operation answers through it byte for byte as the replica itself does;
// - an import on the primary: every answer is the new data's within the replay plus the
//   rebuild, no answer mixes versions, 0 failed requests;
// - a rolling restart of both replicas, and a SIGKILL of one: 0 failed requests;
// - a restart of the standby, and an outage longer than the drain period: answers from
//   memory go on, calls that need the database get 503 with Retry-After (gRPC
//   `unavailable`), never a 500 or a reset connection.
// Run by `npm run test:fleet` (and .ci/run), apart from `npm test`: it needs haproxy.
import { execFile } from "node:child_process";
import http from "node:http";
import http2 from "node:http2";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import t from "tap";
import { freePort } from "../../src/dev/free-port.js";
import { CPB_BIN } from "../bench/peer/cpb-command.js";
import { startIdentity } from "../bench/peer/identity.js";
import { documentedOperations } from "../helpers/openapi-operations.js";
import { h2Exchange, http1Exchange } from "../helpers/raw-exchange.js";
import { query, startReplicatedPostgres } from "../helpers/replicated-postgres.js";
import { restWalkCases } from "../helpers/rest-walk-cases.js";
import { startBalancer } from "./haproxy.js";
import { startMixedLoad, type Outcome } from "./mixed-load.js";
import { createReplica } from "./replica.js";

const run = promisify(execFile);
const AS_OF = "2026-08-31";
const GENERATION = ["--companies", "3000", "--programs", "30000", "--losses", "4000", "--as-of", AS_OF];
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const cpb = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [CPB_BIN, ...args], { env: { ...process.env, ...env }, maxBuffer: 16 << 20 });

/**
 * The service's own refusals, by their messages: a gRPC client reports a balancer's bare
 * 503, a reset stream or a lost connection as `unavailable` too, and those are failures.
 */
const SERVICE_REFUSALS = /^(the database is unavailable|the database cancelled this read|the server is at capacity)/;

/** What went wrong with an answer, or undefined: a 200, or (where allowed) a refusal done right. */
function failure(outcome: Outcome, refusalsAllowed: boolean): string | undefined {
  if (outcome.status === 200 || outcome.status === "ok") return undefined;
  const refusal =
    (outcome.status === 503 && outcome.retryAfter != null && outcome.retryAfter !== "") ||
    (outcome.status === "unavailable" && SERVICE_REFUSALS.test(outcome.error ?? ""));
  if (refusalsAllowed && refusal) return undefined;
  return `${outcome.protocol} ${outcome.request}: ${outcome.status}${outcome.error ? ` ${outcome.error}` : ""}`;
}

const counts = (outcomes: readonly Outcome[]) => {
  const by = new Map<string, number>();
  for (const o of outcomes) by.set(String(o.status), (by.get(String(o.status)) ?? 0) + 1);
  return [...by].map(([status, n]) => `${status}×${n}`).join(", ");
};

t.test("a fleet on a hot standby behind HAProxy", async (t) => {
  const pair = await startReplicatedPostgres({
    // The settings docs/deployment.md gives a standby that serves replicas.
    standbySettings: { hot_standby_feedback: "on", max_standby_streaming_delay: "5s" },
  });
  t.teardown(() => pair.stop());
  await query(pair.primaryUrl, "create database cpb");
  const { primary, standby } = pair.databaseUrl("cpb");
  const work = await mkdtemp(path.join(tmpdir(), "cpb-fleet-"));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  await cpb(["migrate"], { DATABASE_URL: primary });
  await cpb(["generate", `${work}/a`, "--seed", "fleet-a", ...GENERATION]);
  await cpb(["generate", `${work}/b`, "--seed", "fleet-b", ...GENERATION]);
  await cpb(["import", `${work}/a`], { DATABASE_URL: primary });
  await pair.caughtUp();

  const identity = await startIdentity();
  t.teardown(() => identity.close());
  const env = {
    DATABASE_URL: standby,
    AUTH_ISSUER: identity.issuer,
    AUTH_AUDIENCE: identity.audience,
    BENCHMARK_AS_OF: AS_OF,
    // Two replicas share this machine's cores with the balancer, PostgreSQL and the load.
    PEER_INDEX_SCAN_THREAD: "off",
  };
  const replicas = [createReplica("replica1", await freePort(), env), createReplica("replica2", await freePort(), env)];
  for (const replica of replicas) {
    replica.start();
    t.teardown(() => replica.stop("SIGKILL"));
  }
  await Promise.all(replicas.map((replica) => replica.ready()));
  const balancer = await startBalancer({
    listen: `127.0.0.1:${await freePort()}`,
    stats: `127.0.0.1:${await freePort()}`,
    replicas: replicas.map((replica) => replica.address),
  });
  t.teardown(() => balancer.stop());
  await Promise.all(replicas.map((replica) => balancer.waitFor(replica.name, true)));

  const load = startMixedLoad(balancer.url, `Bearer ${identity.token}`);
  t.teardown(() => load.stop());
  /** Runs a scenario under the load and returns the outcomes of calls sent meanwhile. */
  const during = async (scenario: () => Promise<void>) => {
    const from = load.outcomes.length;
    await scenario();
    return load.outcomes.slice(from);
  };
  const failuresOf = (outcomes: readonly Outcome[], refusalsAllowed = false) =>
    outcomes.map((o) => failure(o, refusalsAllowed)).filter((f) => f !== undefined);

  await t.test("ready: both replicas UP, every protocol answers through the balancer", async (t) => {
    const outcomes = await during(() => pause(2_000));
    const states = await balancer.states();
    t.equal(states.get("ready/replica1"), "UP");
    t.equal(states.get("ready/replica2"), "UP");
    t.same(failuresOf(outcomes), [], `0 failed of ${outcomes.length} (${counts(outcomes)})`);
    const answered = new Set(outcomes.filter((o) => o.status === 200 || o.status === "ok").map((o) => o.request));
    t.equal(answered.size, 9, `every kind of call answered: ${[...answered].join(", ")}`);
  });

  await t.test("every REST operation answers through the balancer as the replica does, HTTP/1.1 or h2c", async (t) => {
    // The balancer speaks HTTP/2 to the replicas: every REST POST is one over h2c there.
    const authorization = `Bearer ${identity.token}`;
    const direct = `http://${replicas[0]!.address}`;
    const document = (await (await fetch(`${direct}/openapi.json`)).json()) as { [key: string]: unknown };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const session = http2.connect(balancer.url);
    t.teardown(() => {
      agent.destroy();
      session.close();
    });
    let compared = 0;
    for (const op of documentedOperations(document)) {
      const complete = await http1Exchange(direct, agent, restWalkCases(op, authorization, undefined)[0]!.request);
      for (const { name, request, status } of restWalkCases(op, authorization, complete.headers.etag)) {
        const fromReplica = await http1Exchange(direct, agent, request);
        const viaHttp1 = await http1Exchange(balancer.url, agent, request);
        const viaH2c = await h2Exchange(session, request);
        t.equal(fromReplica.status, status, `${name}: ${status} from the replica`);
        t.same([viaHttp1.status, viaH2c.status], [status, status], `${name}: ${status} through the balancer`);
        t.ok(viaHttp1.body.equals(fromReplica.body) && viaH2c.body.equals(fromReplica.body), `${name}: the same bytes`);
        compared++;
      }
    }
    t.comment(`${compared} requests, each three ways`);
  });

  await t.test("an import on the primary: new data within the replay and the rebuild, never mixed", async (t) => {
    const before = new Set(load.outcomes.map((o) => o.version));
    t.same([...before], ["1"], "every answer so far is version 1's");
    let exitedAt = 0;
    let replayedAt = 0;
    const outcomes = await during(async () => {
      await cpb(["import", `${work}/b`, "--replace"], { DATABASE_URL: primary });
      exitedAt = performance.now();
      await pair.caughtUp();
      replayedAt = performance.now();
      await pause(6_000);
    });
    t.same(failuresOf(outcomes), [], `0 failed of ${outcomes.length} (${counts(outcomes)})`);
    const old = outcomes.filter((o) => o.version === "1");
    t.ok(old.length > 0, "answers of version 1 went on while the import ran");
    const lastOld = Math.max(0, ...old.map((o) => o.at));
    t.ok(
      outcomes.some((o) => o.version === "2" && o.at > lastOld),
      "then every answer is version 2's",
    );
    // The standby's replay, a poll of its version (250 ms), the rebuild, and a second for
    // the answers under way at the swap.
    const replay = replayedAt - exitedAt;
    const builds = await Promise.all(replicas.map(async (r) => (await r.readiness()).peerIndex));
    t.same(
      builds.map((b) => b.version),
      [2, 2],
      "both replicas built version 2",
    );
    // Twice the last build: a build the replay cancelled is built again (peer-index.ts).
    const bound = replay + 250 + 2 * Math.max(...builds.map((b) => b.buildMs)) + 1_000;
    const newAfter = lastOld - exitedAt;
    t.ok(
      newAfter < bound,
      `the last old answer was sent ${Math.round(newAfter)} ms after the import exited: replay ${Math.round(replay)} ms, builds ${builds.map((b) => b.buildMs).join(" and ")} ms`,
    );
    // One body per request and version: no answer is part old data, part new. (Lookups
    // ask for a different record each time, so only the peer-group calls repeat.)
    const bodies = new Map<string, Set<string>>();
    for (const o of load.outcomes.filter((o) => o.hash && o.version && !o.needsDatabase)) {
      const key = `${o.request} @ ${o.version}`;
      bodies.set(key, (bodies.get(key) ?? new Set()).add(o.hash!));
    }
    t.same(
      [...bodies].filter(([, hashes]) => hashes.size > 1).map(([key]) => key),
      [],
      `each of ${bodies.size} peer-group request-and-version pairs has one answer`,
    );
    t.not(
      [...bodies.get("POST limit adequacy @ 1")!][0],
      [...bodies.get("POST limit adequacy @ 2")!][0],
      "the import changed the figures",
    );
  });

  await t.test("a rolling restart of both replicas: 0 failed requests", async (t) => {
    const outcomes = await during(async () => {
      for (const replica of replicas) {
        t.equal(await replica.stop("SIGTERM"), 0, `${replica.name} drained and exited 0`);
        replica.start();
        await replica.ready();
        await balancer.waitFor(replica.name, true);
      }
    });
    t.same(failuresOf(outcomes), [], `0 failed of ${outcomes.length} (${counts(outcomes)})`);
  });

  await t.test("a SIGKILL of one replica: 0 failed requests", async (t) => {
    const [victim] = replicas;
    const outcomes = await during(async () => {
      await pause(500);
      await victim!.stop("SIGKILL");
      await balancer.waitFor(victim!.name, false);
      await pause(1_000);
      victim!.start();
      await victim!.ready();
      await balancer.waitFor(victim!.name, true);
    });
    t.same(failuresOf(outcomes), [], `0 failed of ${outcomes.length} (${counts(outcomes)})`);
  });

  for (const { name, awayMs } of [
    { name: "a restart of the standby", awayMs: 0 },
    { name: "an outage of the standby longer than the drain period (3 s)", awayMs: 5_000 },
  ]) {
    await t.test(`${name}: memory answers, the rest 503 with Retry-After, never a 500`, async (t) => {
      let away = { from: 0, to: 0 };
      const outcomes = await during(async () => {
        await pause(500);
        away.from = performance.now();
        await pair.stopStandby();
        await pause(awayMs);
        await pair.startStandby();
        away.to = performance.now();
        await Promise.all(replicas.map((replica) => balancer.waitFor(replica.name, true)));
        await pause(3_000);
      });
      t.same(
        failuresOf(outcomes, true),
        [],
        `no 500, no reset, no bare 503 of ${outcomes.length} (${counts(outcomes)})`,
      );
      const meanwhile = outcomes.filter((o) => o.at > away.from + 500 && o.at < away.to);
      if (awayMs > 0) {
        t.ok(
          meanwhile.some((o) => !o.needsDatabase && (o.status === 200 || o.status === "ok")),
          `answers from memory went on while the standby was away (${counts(meanwhile.filter((o) => !o.needsDatabase))})`,
        );
        t.ok(
          meanwhile.some((o) => o.needsDatabase && o.status !== 200 && o.status !== "ok"),
          `lookups were refused while it was away (${counts(meanwhile.filter((o) => o.needsDatabase))})`,
        );
      }
      const after = outcomes.filter((o) => o.at > away.to + 2_000);
      t.ok(after.length > 0, "calls were sent once it was back");
      t.same(failuresOf(after), [], `every call answers again once it is back (${counts(after)})`);
      away = { from: 0, to: 0 };
    });
  }

  await load.stop();
  t.comment(`in all: ${load.outcomes.length} calls (${counts(load.outcomes)})`);
});
