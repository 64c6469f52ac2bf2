import type { BareServer } from "./bare-server.js";
import { recordFailure, type FailureLog } from "./failures.js";
import type { Answer } from "./http-client.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "./load-generator.js";
import type { ApiCall } from "./operations.js";
import { median } from "./stats.js";

export interface WarmResult {
  /** The server's rounds together. */
  server: LoadResult;
  /** The bare server's rounds together. */
  bare: LoadResult;
  /** The median over the rounds of server requests/s over bare requests/s. */
  ratio: number;
  /** Each round's ratio, in order. */
  roundRatios: number[];
}

/** Rounds of server then bare in one warm measurement (fewer for runs under 5 s). */
const WARM_ROUNDS = 5;

/** One request repeated against the server and the bare server. */
export interface WarmLoad {
  load: LoadGenerator;
  bare: BareServer;
  serverUrl: string;
  token: string;
  call: ApiCall;
  /** The server's answer to `call`, which the bare server then repeats. */
  answer: Answer;
  connections: number;
  durationSeconds: number;
}

/** The load of one repeated request against a base URL, as autocannon takes it. */
export function loadSpec(
  baseUrl: string,
  token: string,
  call: ApiCall,
  connections: number,
  durationSeconds: number,
): LoadSpec {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  return { url: `${baseUrl}${call.path}`, method: call.method, headers, body: call.body, connections, durationSeconds };
}

/**
 * One request repeated at `connections` for `durationSeconds` in all (CONVENTIONS.md:
 * warm), against the server and against the bare server answering the same bytes, in
 * alternating rounds: this machine's speed drifts by tens of percent over seconds, and a
 * drift then weighs on both sides of each round's ratio instead of on one side alone.
 */
export async function runWarm(options: WarmLoad & { label: string; failures: FailureLog }): Promise<WarmResult> {
  const { load, bare, call, answer, failures, label } = options;
  await bare.serve({
    status: answer.status,
    contentType: answer.contentType,
    bodyBase64: answer.body.toString("base64"),
  });
  const rounds = Math.max(1, Math.min(WARM_ROUNDS, Math.floor(options.durationSeconds)));
  const seconds = options.durationSeconds / rounds;
  const servers: LoadResult[] = [];
  const bares: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    servers.push(await load.run(loadSpec(options.serverUrl, options.token, call, options.connections, seconds)));
    bares.push(await load.run(loadSpec(bare.url, options.token, call, options.connections, seconds)));
  }
  const server = combine(servers);
  const bareResult = combine(bares);
  countFailures(failures, `warm ${label}`, server);
  countFailures(failures, `warm bare ${label}`, bareResult);
  const roundRatios = servers.map((s, i) =>
    bares[i]!.requestsPerSecond > 0 ? s.requestsPerSecond / bares[i]!.requestsPerSecond : 0,
  );
  return { server, bare: bareResult, ratio: median(roundRatios), roundRatios };
}

/** Rounds of one load as one: requests and failures summed, latency p50 the rounds' median, p99 their worst. */
function combine(rounds: readonly LoadResult[]): LoadResult {
  const requests = rounds.reduce((sum, r) => sum + r.requests, 0);
  const durationSeconds = rounds.reduce((sum, r) => sum + r.durationSeconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const r of rounds)
    for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    requests,
    durationSeconds,
    requestsPerSecond: durationSeconds > 0 ? requests / durationSeconds : 0,
    latencyP50Ms: median(rounds.map((r) => r.latencyP50Ms)),
    latencyP99Ms: Math.max(...rounds.map((r) => r.latencyP99Ms)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    timeouts: rounds.reduce((sum, r) => sum + r.timeouts, 0),
    statusCodes,
  };
}

/**
 * An unmeasured run against the bare server and one against the server, so that none of
 * the three processes (autocannon's, the bare server's, the server's warm path) is
 * JIT-cold in the first measured row.
 */
export async function primeLoad(options: WarmLoad): Promise<void> {
  const { load, bare, answer, call, connections, durationSeconds } = options;
  await bare.serve({
    status: answer.status,
    contentType: answer.contentType,
    bodyBase64: answer.body.toString("base64"),
  });
  await load.run(loadSpec(bare.url, options.token, call, connections, durationSeconds));
  await load.run(loadSpec(options.serverUrl, options.token, call, connections, durationSeconds));
}

/** Non-2xx answers and connection errors (timeouts among them) of a load run. */
export function countFailures(failures: FailureLog, label: string, result: LoadResult): void {
  const codes = Object.entries(result.statusCodes)
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, n]) => `${code} x${n}`);
  recordFailure(
    failures,
    `${label}: ${result.non2xx} non-2xx answers${codes.length ? ` (${codes.join(", ")})` : ""}`,
    result.non2xx,
  );
  recordFailure(failures, `${label}: ${result.errors} errors (${result.timeouts} timeouts)`, result.errors);
}
