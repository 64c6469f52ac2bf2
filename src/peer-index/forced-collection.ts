import v8 from "node:v8";
import vm from "node:vm";

let collector: (() => void) | undefined;

/**
 * A full garbage collection of this thread's heap, now. Only for memory the collector
 * alone can give back and that must not wait for it: the shared columns of a replaced
 * snapshot (release-snapshot.ts), freed once every thread that held them has
 * collected. Without it, a few rebuilds in a row held several snapshots at once: in a
 * standalone test of 320 MiB snapshots posted to a worker, RSS went 415 → 1,376 MiB over
 * six swaps before a collection came; with a collection in both threads after each,
 * 391-393 MiB. A collection of the server's heap takes some 5-10 ms, once per swap.
 *
 * V8 gives the function only to contexts made after its flag is set: a new context
 * provides it (and threads started later have it as `gc`).
 */
export function collectGarbage(): void {
  collector ??= exposedCollector();
  collector();
}

function exposedCollector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}
