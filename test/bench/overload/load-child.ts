/**
 * The overload bench's clients, in a process of their own so that the bench's own work
 * never delays them: `concurrency` loops sending one request each, back to back, for
 * `seconds`, and a /healthz probe every 50 ms on its own connection. Every answer is
 * recorded (status, latency, Retry-After) and summed up for the parent.
 */
export interface OverloadSpec {
  baseUrl: string;
  token: string;
  path: string;
  body: string;
  concurrency: number;
  seconds: number;
}

export interface OverloadResult {
  answers: number;
  byStatus: Record<string, number>;
  served: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
  refused: { count: number; p50Ms: number; p99Ms: number; maxMs: number; withoutRetryAfter: number };
  errors: string[];
  healthz: { samples: number; p99Ms: number; maxMs: number; failed: number };
}

process.on("message", (spec: OverloadSpec) => {
  void run(spec).then((result) => process.send!(result));
});

async function run(spec: OverloadSpec): Promise<OverloadResult> {
  const until = performance.now() + spec.seconds * 1000;
  const byStatus: Record<string, number> = {};
  const served: number[] = [];
  const refused: number[] = [];
  let withoutRetryAfter = 0;
  const errors: string[] = [];
  const loop = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      try {
        const res = await fetch(`${spec.baseUrl}${spec.path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${spec.token}`, "content-type": "application/json" },
          body: spec.body,
        });
        await res.arrayBuffer();
        const ms = performance.now() - started;
        byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
        if (res.status === 200) served.push(ms);
        else if (res.status === 503) {
          refused.push(ms);
          if (res.headers.get("retry-after") === null) withoutRetryAfter++;
        }
      } catch (error) {
        if (errors.length < 10) errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  const health = { latencies: [] as number[], failed: 0 };
  const probe = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      try {
        const res = await fetch(`${spec.baseUrl}/healthz`);
        await res.arrayBuffer();
        if (res.status !== 200) health.failed++;
      } catch {
        health.failed++;
      }
      health.latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await Promise.all([...Array.from({ length: spec.concurrency }, loop), probe()]);
  return {
    answers: served.length + refused.length,
    byStatus,
    served: { count: served.length, ...spread(served) },
    refused: { count: refused.length, ...spread(refused), withoutRetryAfter },
    errors,
    healthz: { samples: health.latencies.length, p99Ms: spread(health.latencies).p99Ms, maxMs: spread(health.latencies).maxMs, failed: health.failed },
  };
}

function spread(values: number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { p50Ms: round(at(0.5)), p99Ms: round(at(0.99)), maxMs: round(sorted.at(-1) ?? 0) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
