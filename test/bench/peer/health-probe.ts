import { readReadyz, type Readyz } from "./readyz.js";
import { percentile } from "./stats.js";

/** What the health probe saw: whether a health check was ever starved while the server worked. */
export interface HealthProbeResult {
  samples: number;
  p99Ms: number;
  maxMs: number;
  failed: number;
  /** The worst of the server's event-loop delay figures over the run. */
  eventLoopDelayMs: Readyz["eventLoopDelayMs"];
}

/** /readyz's delay covers the last 30-60 s: read this often, its windows cover the run. */
const DELAY_READ_EVERY_MS = 20_000;

/**
 * GET /healthz every `intervalMs` for as long as it runs, on its own connection: the
 * latency a load balancer's health check meets while the server answers the load; and
 * every 20 s the server's own event-loop delay.
 */
export function startHealthProbe(baseUrl: string, intervalMs = 100): { stop(): Promise<HealthProbeResult> } {
  const latencies: number[] = [];
  let failed = 0;
  let running = true;
  let delay: Readyz["eventLoopDelayMs"] = null;
  let delayReadAt = performance.now();
  const readDelay = async () => {
    const { eventLoopDelayMs: now } = await readReadyz(baseUrl);
    if (now)
      delay = delay
        ? { p50: Math.max(delay.p50, now.p50), p99: Math.max(delay.p99, now.p99), max: Math.max(delay.max, now.max) }
        : now;
    delayReadAt = performance.now();
  };
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
      if (performance.now() - delayReadAt > DELAY_READ_EVERY_MS) await readDelay();
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await readDelay();
      return {
        samples: latencies.length,
        p99Ms: percentile(latencies, 99),
        maxMs: Math.max(0, ...latencies),
        failed,
        eventLoopDelayMs: delay,
      };
    },
  };
}
