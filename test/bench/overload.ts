/**
 * The overload bench of issue 14: `npm run bench:overload`.
 *
 * `cpb serve` (authentication on, the answer cache off so that every request is
 * computed) on an imported database, warmed up by a few requests, then `--concurrency`
 * clients (128 by default), in a process of their own, each on its own connection,
 * asking for gzip as real clients do, sending the broadest peer group's operation back
 * to back for `--seconds`, a refused one again after its Retry-After (at once with
 * `--storm`, as clients that ignore it do); meanwhile a probe in this process asks
 * /healthz every 50 ms on a new connection. `--runs` times (3) for each of
 * `--operations` (the broadest limit adequacy, 2.9 MB answers, and assessment), on one
 * server. A run passes when every request got an answer (connection errors are counted
 * by code), every answer is a 200, or a 503 within 100 ms carrying Retry-After, and
 * /healthz always answered within 100 ms; the bench passes when every run does.
 *
 *   npm run bench:overload -- --database-url postgres://postgres@127.0.0.1:5432/cpb_advisen
 *   npm run bench:overload -- --engine sql --seconds 30
 *   npm run bench:overload -- --operations "POST limit adequacy" --runs 1
 *
 * With `--target URL --token TOKEN`, no server is started: the storm goes to a server
 * already running elsewhere, so that the clients and the probe run on a machine of
 * their own, as an outside caller's would (the database URL still names the data, to
 * find the broadest group).
 */
import { fork } from "node:child_process";
import path from "node:path";
import { Command } from "commander";
import { withClient } from "./peer/bench-database.js";
import { findClasses } from "./peer/classes.js";
import { operationNamed, type ApiCall, type OperationName } from "./peer/operations.js";
import { AS_OF, countAboveZero } from "./peer/options.js";
import { startServerWithIdentity } from "./peer/server-process.js";
import { baseVariant } from "./peer/variants.js";
import { probeHealth, type HealthResult } from "./overload/health-probe.js";
import type { OverloadResult, OverloadSpec } from "./overload/load-child.js";

const FAST_MS = 100;
const WARM_UP_REQUESTS = 5;

const options = new Command()
  .option(
    "--database-url <url>",
    "an imported database (npm run bench creates one)",
    "postgres://postgres@127.0.0.1:5432/cpb_bench_1",
  )
  .option("--engine <engine>", "index or sql", "index")
  .option("--concurrency <n>", "clients sending at once", countAboveZero, 128)
  .option("--seconds <n>", "how long", countAboveZero, 20)
  .option(
    "--operations <names>",
    "the operations sent, comma-separated (operations of npm run bench)",
    "POST limit adequacy,POST assessment",
  )
  .option("--runs <n>", "runs of each operation", countAboveZero, 3)
  .option("--storm", "refused clients send again at once instead of after Retry-After")
  .option("--target <url>", "a running server to storm instead of starting one (with --token)")
  .option("--token <token>", "the bearer token for --target (cpb token, or the provider's)")
  .parse(process.argv)
  .opts<{
    databaseUrl: string;
    engine: "index" | "sql";
    concurrency: number;
    seconds: number;
    operations: string;
    runs: number;
    storm?: boolean;
    target?: string;
    token?: string;
  }>();
if (options.target !== undefined && options.token === undefined) throw new Error("--target needs --token");

const broadest = (await withClient(options.databaseUrl, (client) => findClasses(client, AS_OF))).find(
  (c) => c.name === "broadest",
)!;
const operations = options.operations.split(",").map((name) => name.trim() as OperationName);
const server = options.target !== undefined ? runningElsewhere(options.target, options.token!) : await startedHere();
try {
  let failedRuns = 0;
  for (const operation of operations) {
    const call = operationNamed(operation).call(broadest, baseVariant(broadest));
    await warmUp(server.baseUrl, server.token, call);
    for (let run = 1; run <= options.runs; run++) {
      const passed = await overload(server.baseUrl, server.token, call, `${operation}, run ${run} of ${options.runs}`);
      if (!passed) failedRuns++;
    }
  }
  console.log(failedRuns === 0 ? "PASS" : `FAIL (${failedRuns} runs)`);
  process.exitCode = failedRuns === 0 ? 0 : 1;
} finally {
  await server.stop();
}

interface StormedServer {
  baseUrl: string;
  token: string;
  stop(): Promise<void>;
}

/** `cpb serve` on this machine, the answer cache off, with an identity provider of its own. */
async function startedHere(): Promise<StormedServer> {
  const { identity, server } = await startServerWithIdentity({
    databaseUrl: options.databaseUrl,
    peerIndex: options.engine === "index" ? "on" : "off",
    logFile: path.resolve(".cpb/bench/overload.server.log"),
    env: { ANSWER_CACHE_MB: "0", LOG_LEVEL: "warn" },
  });
  try {
    await server.ready(300_000);
  } catch (error) {
    await server.stop();
    await identity.close();
    throw error;
  }
  console.log(`cpb serve ready (${options.engine} engine)`);
  return {
    baseUrl: server.baseUrl,
    token: identity.token,
    async stop() {
      await server.stop();
      await identity.close();
    },
  };
}

/** A server someone else started (its answer cache should be off: ANSWER_CACHE_MB=0). */
function runningElsewhere(baseUrl: string, token: string): StormedServer {
  console.log(`storming ${baseUrl} (started elsewhere; --engine does not apply)`);
  return { baseUrl, token, stop: async () => {} };
}

/** One run: the clients and the health probe for `--seconds`, then the report; whether it passed. */
async function overload(baseUrl: string, token: string, call: ApiCall, label: string): Promise<boolean> {
  const child = fork(path.resolve(import.meta.dirname, "overload/load-child.ts"), [], {
    execArgv: ["--import", "tsx"],
  });
  const spec: OverloadSpec = {
    baseUrl,
    token,
    path: call.path,
    body: call.body!,
    concurrency: options.concurrency,
    seconds: options.seconds,
    honourRetryAfter: !options.storm,
  };
  const loaded = new Promise<OverloadResult>((resolve) => {
    child.once("message", (message) => resolve(message as OverloadResult));
    child.send(spec);
  });
  const health = await probeHealth(baseUrl, performance.now() + options.seconds * 1000);
  const result = await loaded;
  child.kill();
  const after = (await (await fetch(`${baseUrl}/readyz`)).json()) as ServerFigures;
  const passed =
    Object.keys(result.errorsByCode).length === 0 &&
    Object.keys(result.byStatus).every((status) => status === "200" || status === "503") &&
    result.refused.maxMs < FAST_MS &&
    result.refused.withoutRetryAfter === 0 &&
    health.maxMs < FAST_MS &&
    health.failed === 0;
  report(label, result, health, after, passed);
  return passed;
}

/**
 * A few answers one after another before the clients start: the load then meets a server
 * whose code is compiled, as a server in service is, and not its first seconds.
 */
async function warmUp(baseUrl: string, token: string, call: ApiCall): Promise<void> {
  for (let i = 0; i < WARM_UP_REQUESTS; i++) {
    const res = await fetch(`${baseUrl}${call.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: call.body!,
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`warm-up answered ${res.status}`);
  }
}

/** What /readyz tells of the run: the gate, and the event loop's delay (its last 30-60 s: the run). */
type ServerFigures = { admission?: unknown; eventLoopDelayMs?: unknown };

function report(
  label: string,
  result: OverloadResult,
  health: HealthResult,
  server: ServerFigures,
  passed: boolean,
): void {
  const perSecond = (n: number) => Math.round(n / options.seconds);
  const errors = Object.values(result.errorsByCode).reduce((sum, n) => sum + n, 0);
  console.log(`broadest ${label}, ${options.concurrency} clients${options.storm ? " retrying at once" : ""}, ${options.seconds} s: ${passed ? "pass" : "FAIL"}
  answers:  ${result.answers} (${JSON.stringify(result.byStatus)})
  connection errors: ${errors}${errors ? ` ${JSON.stringify(result.errorsByCode)}: ${result.errors.join("; ")}` : ""}
  served:   ${result.served.count} (${perSecond(result.served.count)}/s), p50 ${result.served.p50Ms} ms, p99 ${result.served.p99Ms} ms, max ${result.served.maxMs} ms
  refused:  ${result.refused.count} (${perSecond(result.refused.count)}/s), p50 ${result.refused.p50Ms} ms, p99 ${result.refused.p99Ms} ms, max ${result.refused.maxMs} ms, without Retry-After ${result.refused.withoutRetryAfter}
            max of the opening burst (each client's first request, on a new connection) ${result.refused.firstRequestMaxMs} ms, of the rest ${result.refused.laterMaxMs} ms
  /healthz: ${health.samples} probes, p99 ${health.p99Ms} ms, max ${health.maxMs} ms, failed ${health.failed}
  gate:     ${JSON.stringify(server.admission)}
  server:   event-loop delay ${JSON.stringify(server.eventLoopDelayMs)} (a 10 ms timer's interval)
  clients:  their own event-loop delay reached ${result.clientLoopDelayMaxMs} ms`);
}
