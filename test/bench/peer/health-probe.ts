import { percentile } from "./stats.js";

/** What the health probe saw: whether a health check was ever starved while the server worked. */
export interface HealthProbeResult {
  samples: number;
  p99Ms: number;
  maxMs: number;
  failed: number;
}

/**
 * GET /healthz every `intervalMs` for as long as it runs, on its own connection: the
 * latency a load balancer's health check meets while the server answers the load.
 */
export function startHealthProbe(baseUrl: string, intervalMs = 100): { stop(): Promise<HealthProbeResult> } {
  const latencies: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        if (response.status !== 200) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { samples: latencies.length, p99Ms: percentile(latencies, 99), maxMs: Math.max(0, ...latencies), failed };
    },
  };
}
