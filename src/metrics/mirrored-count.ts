import type { Counter } from "prom-client";

/**
 * Sets a counter, in its collect(), to a running total kept elsewhere (the answer
 * cache's hits, the gate's refusals): those are counted where they happen, with a
 * plain increment, and read only when Prometheus scrapes.
 */
export function mirrorCount(counter: Counter, total: number): void {
  counter.reset();
  counter.inc(total);
}
