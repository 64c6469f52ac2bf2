import { send, spread, type Spread } from "./http-exchange.js";

export interface HealthResult extends Spread {
  samples: number;
  failed: number;
}

/**
 * Asks /healthz every `everyMs` until `until` (performance.now()), on a new connection
 * each time, as a Kubernetes or balancer probe does. It runs in the bench's own process,
 * which is idle meanwhile: the clients' process is as loaded as the server, and its
 * own delays are not the server's.
 */
export async function probeHealth(baseUrl: string, until: number, everyMs = 50): Promise<HealthResult> {
  const healthz = new URL("/healthz", baseUrl);
  const latencies: number[] = [];
  let failed = 0;
  while (performance.now() < until) {
    const started = performance.now();
    try {
      if ((await send(healthz, { agent: false })).status !== 200) failed++;
    } catch {
      failed++;
    }
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return { samples: latencies.length, failed, ...spread(latencies) };
}
