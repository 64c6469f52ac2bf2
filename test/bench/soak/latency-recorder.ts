import { createHistogram, type RecordableHistogram } from "node:perf_hooks";

/** One operation's answers in a period; failed ones count, with the time they took. */
export interface OperationFigures {
  requests: number;
  failed: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** A distinct failure ("GET company: 503 {...}") and how often it happened. */
export interface FailureKind {
  what: string;
  count: number;
}

/** What the clients saw in one report period. */
export interface ClientWindow {
  seconds: number;
  requests: number;
  failed: number;
  operations: Record<string, OperationFigures>;
  /** The most frequent distinct failures, most frequent first. */
  failures: FailureKind[];
}

/** Distinct failures kept per period; further ones are counted under one "other" line. */
const DISTINCT_KEPT = 20;
const OTHER = "(other failures)";

interface Tally {
  window: RecordableHistogram;
  run: RecordableHistogram;
  windowFailed: number;
  runFailed: number;
}

/**
 * Latencies by operation, per period and for the whole run, in HDR histograms (node's
 * createHistogram, 3 significant digits, in microseconds): memory stays the same
 * however long the soak runs, so the clients' own process cannot grow with it.
 * `operations` fixes the order of the figures (the mix's), whatever answers first.
 */
export function createLatencyRecorder(operations: readonly string[]) {
  const tallies = new Map<string, Tally>();
  let failures = new Map<string, number>();
  let windowStarted = performance.now();
  const histogram = () => createHistogram({ lowest: 1, highest: 600_000_000, figures: 3 });
  const tally = (operation: string) => {
    let found = tallies.get(operation);
    if (!found)
      tallies.set(operation, (found = { window: histogram(), run: histogram(), windowFailed: 0, runFailed: 0 }));
    return found;
  };
  const figures = (h: RecordableHistogram, failed: number): OperationFigures => {
    const ms = (us: number) => us / 1000;
    return {
      requests: h.count,
      failed,
      p50Ms: ms(h.percentile(50)),
      p95Ms: ms(h.percentile(95)),
      p99Ms: ms(h.percentile(99)),
      maxMs: ms(h.max),
    };
  };
  for (const name of operations) tally(name);
  return {
    record(operation: string, ms: number): void {
      tally(operation).window.record(Math.max(1, Math.round(ms * 1000)));
    },
    fail(operation: string, ms: number, what: string): void {
      const t = tally(operation);
      t.window.record(Math.max(1, Math.round(ms * 1000)));
      t.windowFailed++;
      const key = `${operation}: ${what}`;
      const kept = failures.has(key) || failures.size < DISTINCT_KEPT ? key : OTHER;
      failures.set(kept, (failures.get(kept) ?? 0) + 1);
    },
    /** Closes the period: its figures, which join the run's. */
    takeWindow(): ClientWindow {
      const operations: Record<string, OperationFigures> = {};
      let requests = 0;
      let failed = 0;
      for (const [name, t] of tallies) {
        operations[name] = figures(t.window, t.windowFailed);
        requests += t.window.count;
        failed += t.windowFailed;
        t.run.add(t.window);
        t.runFailed += t.windowFailed;
        t.window.reset();
        t.windowFailed = 0;
      }
      const kinds = [...failures].map(([what, count]) => ({ what, count })).sort((a, b) => b.count - a.count);
      failures = new Map();
      const now = performance.now();
      const seconds = (now - windowStarted) / 1000;
      windowStarted = now;
      return { seconds, requests, failed, operations, failures: kinds };
    },
    /** Each operation over the whole run (closed periods only). */
    run(): Record<string, OperationFigures> {
      return Object.fromEntries([...tallies].map(([name, t]) => [name, figures(t.run, t.runFailed)]));
    },
  };
}

export type LatencyRecorder = ReturnType<typeof createLatencyRecorder>;
