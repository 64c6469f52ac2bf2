/**
 * The load generator's process: runs autocannon (programmatically) for each `run` message
 * and answers with its figures. It exits when the parent disconnects.
 */
import { createRequire } from "node:module";
import type { FromLoadChild, LoadResult, LoadSpec, ToLoadChild } from "./load-generator.js";

/** What this file uses of autocannon's API (the package ships no types). */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number };
  requests: { total: number };
}
interface AutocannonInstance {
  stop(): void;
}
type Autocannon = (
  options: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: string;
    connections: number;
    duration: number;
    overallRate?: number;
    timeout: number;
    sampleInt: number;
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;
const running = new Map<number, AutocannonInstance>();

const reply = (message: FromLoadChild) => process.send?.(message);

function summary(result: AutocannonResult): LoadResult {
  return {
    requests: result.requests.total,
    durationSeconds: result.duration,
    requestsPerSecond: result.duration > 0 ? result.requests.total / result.duration : 0,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

function run(id: number, spec: LoadSpec): void {
  const instance = autocannon(
    {
      url: spec.url,
      method: spec.method,
      headers: spec.headers,
      body: spec.body,
      connections: spec.connections,
      duration: spec.durationSeconds,
      overallRate: spec.overallRate,
      timeout: 30, // past the server's own 8 s query timeout: a slow answer shows as its 503
      sampleInt: 100, // a stop takes effect at the next sample
    },
    (error, result) => {
      running.delete(id);
      reply(error ? { type: "failed", id, message: error.message } : { type: "result", id, result: summary(result) });
    },
  );
  running.set(id, instance);
  reply({ type: "started", id });
}

process.on("message", (message: ToLoadChild) => {
  if (message.type === "run") run(message.id, message.spec);
  else running.get(message.id)?.stop();
});
process.on("disconnect", () => process.exit(0));
