import { monitorEventLoopDelay } from "node:perf_hooks";

/** How long the event loop kept callbacks waiting, in milliseconds. */
export type EventLoopDelay = { p50: number; p99: number; max: number };

/**
 * Watches the event loop's delay from now on (libuv timers every 10 ms, so a block
 * shows as a late timer): the longest shows whether any request's computation, or
 * anything else, starved the others and the health checks.
 */
export function watchEventLoopDelay(): () => EventLoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
  return () => ({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) });
}
