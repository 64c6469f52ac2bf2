/**
 * The overload bench of issue 14: `npm run bench:overload`.
 *
 * `cpb serve` (authentication on, the answer cache off so that every request is
 * computed) on an imported database, warmed up by a few requests, then `--concurrency`
 * clients (128 by default), in a process of their own, each on its own connection,
 * sending the broadest peer group's `--operation` (limit adequacy, the heaviest, by
 * default) back to back for `--seconds`, a refused one again after its Retry-After (at
 * once with `--storm`, as clients that ignore it do); meanwhile a probe
 * in this process asks /healthz every 50 ms on a new connection. It passes when every
 * answer is a 200, or a 503 within 100 ms carrying Retry-After, and /healthz always
 * answered within 100 ms.
 *
 *   npm run bench:overload -- --database-url postgres://postgres@127.0.0.1:5432/cpb_advisen
 *   npm run bench:overload -- --engine sql --seconds 30
 */
import { fork } from "node:child_process";
import path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { withClient } from "./peer/bench-database.js";
import { findClasses } from "./peer/classes.js";
import { operationNamed, type OperationName } from "./peer/operations.js";
import { AS_OF } from "./peer/options.js";
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
  .option("--concurrency <n>", "clients sending at once", whole, 128)
  .option("--seconds <n>", "how long", whole, 20)
  .option("--operation <name>", "the operation sent (an operation of npm run bench)", "POST limit adequacy")
  .option("--storm", "refused clients send again at once instead of after Retry-After")
  .parse(process.argv)
  .opts<{
    databaseUrl: string;
    engine: "index" | "sql";
    concurrency: number;
    seconds: number;
    operation: OperationName;
    storm?: boolean;
  }>();

function whole(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${text}" is not a whole number above 0`);
  return n;
}

const broadest = (await withClient(options.databaseUrl, (client) => findClasses(client, AS_OF))).find(
  (c) => c.name === "broadest",
)!;
const call = operationNamed(options.operation).call(broadest, baseVariant(broadest));
const { identity, server } = await startServerWithIdentity({
  databaseUrl: options.databaseUrl,
  peerIndex: options.engine === "index" ? "on" : "off",
  logFile: path.resolve(".cpb/bench/overload.server.log"),
  env: { ANSWER_CACHE_MB: "0", LOG_LEVEL: "warn" },
});
try {
  await server.ready(300_000);
  console.log(`cpb serve ready (${options.engine} engine)`);
  await warmUp(server.baseUrl, identity.token);
  const child = fork(path.resolve(import.meta.dirname, "overload/load-child.ts"), [], {
    execArgv: ["--import", "tsx"],
  });
  const spec: OverloadSpec = {
    baseUrl: server.baseUrl,
    token: identity.token,
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
  const health = await probeHealth(server.baseUrl, performance.now() + options.seconds * 1000);
  const result = await loaded;
  child.kill();
  const after = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as ServerFigures;
  report(result, health, after);
  const passed =
    result.errors.length === 0 &&
    Object.keys(result.byStatus).every((status) => status === "200" || status === "503") &&
    result.refused.maxMs < FAST_MS &&
    result.refused.withoutRetryAfter === 0 &&
    health.maxMs < FAST_MS &&
    health.failed === 0;
  console.log(passed ? "PASS" : "FAIL");
  process.exitCode = passed ? 0 : 1;
} finally {
  await server.stop();
  await identity.close();
}

/**
 * A few answers one after another before the clients start: the load then meets a server
 * whose code is compiled, as a server in service is, and not its first seconds.
 */
async function warmUp(baseUrl: string, token: string): Promise<void> {
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

function report(result: OverloadResult, health: HealthResult, server: ServerFigures): void {
  const perSecond = (n: number) => Math.round(n / options.seconds);
  console.log(`broadest ${options.operation}, ${options.concurrency} clients${options.storm ? " retrying at once" : ""}, ${options.seconds} s:
  answers:  ${result.answers} (${JSON.stringify(result.byStatus)}), errors ${result.errors.length}${result.errors.length ? `: ${result.errors.join("; ")}` : ""}
  served:   ${result.served.count} (${perSecond(result.served.count)}/s), p50 ${result.served.p50Ms} ms, p99 ${result.served.p99Ms} ms, max ${result.served.maxMs} ms
  refused:  ${result.refused.count} (${perSecond(result.refused.count)}/s), p50 ${result.refused.p50Ms} ms, p99 ${result.refused.p99Ms} ms, max ${result.refused.maxMs} ms, without Retry-After ${result.refused.withoutRetryAfter}
  /healthz: ${health.samples} probes, p99 ${health.p99Ms} ms, max ${health.maxMs} ms, failed ${health.failed}
  gate:     ${JSON.stringify(server.admission)}
  server:   event-loop delay ${JSON.stringify(server.eventLoopDelayMs)} (a 10 ms timer's interval)
  clients:  their own event-loop delay reached ${result.clientLoopDelayMaxMs} ms`);
}
