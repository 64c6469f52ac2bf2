import { createHistogram, type RecordableHistogram } from "node:perf_hooks";

/** How long the event loop kept callbacks waiting, in milliseconds. */
export type EventLoopDelay = { p50: number; p99: number; max: number };

const RESOLUTION_MS = 10;
/** The figures cover the last 30-60 s: two halves, the older dropped every 30 s. */
const HALF_WINDOW_MS = 30_000;

/**
 * Watches the event loop's delay over the last minute or so: a block shows as a late
 * timer, so the longest shows whether any request's computation, or anything else,
 * starved the others and the health checks lately. Measured as Node's
 * monitorEventLoopDelay measures it, the interval of a 10 ms timer (an idle loop reads
 * 10 ms); recorded here so that old blocks age out, since that histogram only keeps
 * everything since it started, which a long-running server's start-up dominates.
 */
export function watchEventLoopDelay(): () => EventLoopDelay {
  let current = createHistogram();
  let previous = createHistogram();
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    current.record(Math.max(1, Math.round((now - last) * 1e6)));
    last = now;
  }, RESOLUTION_MS);
  const rotation = setInterval(() => {
    previous = current;
    current = createHistogram();
  }, HALF_WINDOW_MS);
  // Like the histogram it replaces, it lives as long as the process, without keeping it up.
  sampler.unref();
  rotation.unref();
  return () => figures(previous, current);
}

function figures(...halves: RecordableHistogram[]): EventLoopDelay {
  const window = createHistogram();
  for (const half of halves) window.add(half);
  if (window.count === 0) return { p50: 0, p99: 0, max: 0 };
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
  return { p50: ms(window.percentile(50)), p99: ms(window.percentile(99)), max: ms(window.max) };
}
