import type { BareServer } from "./bare-server.js";
import { recordFailure, type FailureLog } from "./failures.js";
import type { Answer } from "./http-client.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "./load-generator.js";
import type { ApiCall } from "./operations.js";

export interface WarmResult {
  server: LoadResult;
  bare: LoadResult;
  /** Server requests/s over bare requests/s. */
  ratio: number;
}

/** The load of one repeated request against a base URL, as autocannon takes it. */
export function loadSpec(baseUrl: string, token: string, call: ApiCall, connections: number, durationSeconds: number): LoadSpec {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  return { url: `${baseUrl}${call.path}`, method: call.method, headers, body: call.body, connections, durationSeconds };
}

/**
 * One request repeated at `connections` for `durationSeconds` (CONVENTIONS.md: warm),
 * against the server, then against the bare server answering the same bytes.
 */
export async function runWarm(options: {
  load: LoadGenerator;
  bare: BareServer;
  serverUrl: string;
  token: string;
  call: ApiCall;
  /** The server's answer to `call`, which the bare server then repeats. */
  answer: Answer;
  connections: number;
  durationSeconds: number;
  label: string;
  failures: FailureLog;
}): Promise<WarmResult> {
  const { load, bare, call, answer, failures, label } = options;
  const server = await load.run(loadSpec(options.serverUrl, options.token, call, options.connections, options.durationSeconds));
  await bare.serve({ status: answer.status, contentType: answer.contentType, bodyBase64: answer.body.toString("base64") });
  const bareResult = await load.run(loadSpec(bare.url, options.token, call, options.connections, options.durationSeconds));
  countFailures(failures, `warm ${label}`, server);
  countFailures(failures, `warm bare ${label}`, bareResult);
  return { server, bare: bareResult, ratio: bareResult.requestsPerSecond > 0 ? server.requestsPerSecond / bareResult.requestsPerSecond : 0 };
}

/**
 * An unmeasured run against the bare server and one against the server, so that none of
 * the three processes (autocannon's, the bare server's, the server's warm path) is
 * JIT-cold in the first measured row.
 */
export async function primeLoad(options: {
  load: LoadGenerator;
  bare: BareServer;
  serverUrl: string;
  token: string;
  answer: Answer;
  call: ApiCall;
  connections: number;
  durationSeconds: number;
}): Promise<void> {
  const { load, bare, answer, call, connections, durationSeconds } = options;
  await bare.serve({ status: answer.status, contentType: answer.contentType, bodyBase64: answer.body.toString("base64") });
  await load.run(loadSpec(bare.url, options.token, call, connections, durationSeconds));
  await load.run(loadSpec(options.serverUrl, options.token, call, connections, durationSeconds));
}

/** Non-2xx answers and connection errors (timeouts among them) of a load run. */
export function countFailures(failures: FailureLog, label: string, result: LoadResult): void {
  const codes = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith("2")).map(([code, n]) => `${code} x${n}`);
  recordFailure(failures, `${label}: ${result.non2xx} non-2xx answers${codes.length ? ` (${codes.join(", ")})` : ""}`, result.non2xx);
  recordFailure(failures, `${label}: ${result.errors} errors (${result.timeouts} timeouts)`, result.errors);
}
