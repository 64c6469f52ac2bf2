/**
 * The overload bench's clients, in a process of their own: `concurrency` loops, each on
 * its own keep-alive connection (as wrk and autocannon count concurrency), sending one
 * request after another for `seconds`; a refused one again after its Retry-After, or at
 * once when asked to storm. Every answer is recorded (status, latency, Retry-After) and
 * summed up for the parent, with this process's own event-loop delay: a latency is the
 * server's only while that is small.
 */
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { send, spread, type Spread } from "./http-exchange.js";

export interface OverloadSpec {
  baseUrl: string;
  token: string;
  path: string;
  body: string;
  concurrency: number;
  seconds: number;
  /** Whether a refused client waits as Retry-After says before it sends again, or sends again at once. */
  honourRetryAfter: boolean;
}

export interface OverloadResult {
  answers: number;
  byStatus: Record<string, number>;
  served: Spread & { count: number };
  refused: Spread & {
    count: number;
    withoutRetryAfter: number;
    /** The slowest refusal of a client's first request (the opening burst, each on a new connection), and of the others. */
    firstRequestMaxMs: number;
    laterMaxMs: number;
  };
  /** Requests that got no answer at all (the connection failed), by the error's code. */
  errorsByCode: Record<string, number>;
  /** The first few of those errors' messages. */
  errors: string[];
  clientLoopDelayMaxMs: number;
}

process.on("message", (spec: OverloadSpec) => {
  void run(spec).then((result) => process.send!(result));
});

async function run(spec: OverloadSpec): Promise<OverloadResult> {
  // `timeout` makes the agent heed the server's Keep-Alive hint and drop an idle
  // connection before the server does (without one, Node's agent keeps it forever, and a
  // client back from its Retry-After raced the server's close: ECONNRESET).
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency, timeout: 60_000 });
  const target = new URL(spec.path, spec.baseUrl);
  const request: http.RequestOptions = {
    agent,
    method: "POST",
    // gzip, as browsers and fetch ask: compressing is part of a large answer's cost.
    headers: {
      authorization: `Bearer ${spec.token}`,
      "content-type": "application/json",
      "accept-encoding": "gzip",
      "content-length": Buffer.byteLength(spec.body),
    },
  };
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const until = performance.now() + spec.seconds * 1000;
  const byStatus: Record<string, number> = {};
  const served: number[] = [];
  const refused: number[] = [];
  let firstRequestMaxMs = 0;
  let laterMaxMs = 0;
  let withoutRetryAfter = 0;
  const errors: string[] = [];
  const errorsByCode: Record<string, number> = {};
  const loop = async () => {
    for (let first = true; performance.now() < until; first = false) {
      const started = performance.now();
      try {
        const { status, retryAfter } = await send(target, request, spec.body);
        const ms = performance.now() - started;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (status === 200) served.push(ms);
        else if (status === 503) {
          refused.push(ms);
          if (first) firstRequestMaxMs = Math.max(firstRequestMaxMs, ms);
          else laterMaxMs = Math.max(laterMaxMs, ms);
          if (retryAfter === undefined) withoutRetryAfter++;
          else if (spec.honourRetryAfter)
            await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "no code";
        errorsByCode[code] = (errorsByCode[code] ?? 0) + 1;
        if (errors.length < 10) errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
  agent.destroy();
  loopDelay.disable();
  return {
    answers: served.length + refused.length,
    byStatus,
    served: { count: served.length, ...spread(served) },
    refused: {
      count: refused.length,
      ...spread(refused),
      withoutRetryAfter,
      firstRequestMaxMs: Math.round(firstRequestMaxMs * 10) / 10,
      laterMaxMs: Math.round(laterMaxMs * 10) / 10,
    },
    errorsByCode,
    errors,
    clientLoopDelayMaxMs: Math.round(loopDelay.max / 1e5) / 10,
  };
}
