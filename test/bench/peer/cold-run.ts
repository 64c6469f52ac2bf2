import type { PeerClass } from "./classes.js";
import { recordFailure, type FailureLog } from "./failures.js";
import type { ApiClient } from "./http-client.js";
import type { Operation, Variant } from "./operations.js";
import { percentile } from "./stats.js";

export interface ColdResult {
  requests: number;
  p50Ms: number;
  p95Ms: number;
  /** The largest answer of the run, in bytes. */
  maxBytes: number;
  failed: number;
}

/**
 * Concurrency 1, every request different (CONVENTIONS.md: cold): `warmup` requests
 * unmeasured, then `requests` timed end to end. Each must be a 200, and each answer
 * that states a program count must state the class's: the moved high bound keeps the peers.
 */
export async function runCold(options: {
  client: ApiClient;
  peerClass: PeerClass;
  operation: Operation;
  nextVariant: () => Variant;
  peers: number;
  warmup: number;
  requests: number;
  failures: FailureLog;
}): Promise<ColdResult> {
  const { client, peerClass, operation, failures } = options;
  const times: number[] = [];
  let maxBytes = 0;
  let failed = 0;
  const label = `cold ${peerClass.name} ${operation.name}`;
  for (let i = 0; i < options.warmup + options.requests; i++) {
    const call = operation.call(peerClass, options.nextVariant());
    const answer = await client.send(call).catch((error: unknown) => error as Error);
    if (answer instanceof Error) {
      failed++;
      recordFailure(failures, `${label}: ${answer.message}`);
      continue;
    }
    if (answer.status !== 200) {
      failed++;
      recordFailure(failures, `${label}: ${answer.status} ${answer.body.toString("utf8").slice(0, 200)}`);
      continue;
    }
    const count = operation.programCount?.(answer.body.toString("utf8"));
    if (count !== undefined && count !== options.peers) {
      failed++;
      recordFailure(
        failures,
        `${label}: ${count} programs, not the class's ${options.peers} (${call.method} ${call.path})`,
      );
    }
    if (i < options.warmup) continue;
    times.push(answer.ms);
    maxBytes = Math.max(maxBytes, answer.body.length);
  }
  return { requests: options.requests, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), maxBytes, failed };
}
