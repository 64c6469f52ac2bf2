/**
 * glibc malloc settings the server runs with (docs/operations.md, Memory). glibc reads
 * them when the process starts, so they belong in the service's environment: `npm
 * start` and the benches set them, and `cpb serve` warns when one is missing.
 *
 * - MALLOC_MMAP_THRESHOLD_: a fixed threshold, so that a replaced snapshot's columns
 *   go back to the system rather than into glibc's heap (the sliding default grows past
 *   them after the first rebuild).
 * - MALLOC_ARENA_MAX: two arenas instead of eight per core, for the main thread, the
 *   build's worker and libuv's pool: fewer half-empty arenas kept resident. The rebuild
 *   under load peaked 28-47 MiB lower at Advisen scale (4 runs), 40 MiB in a whole bench.
 */
export const MALLOC_SETTINGS: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_ARENA_MAX: "2",
};

/** The settings missing from `env`, as `NAME=value`. */
export function missingMallocSettings(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(MALLOC_SETTINGS)
    .filter(([name]) => env[name] === undefined)
    .map(([name, value]) => `${name}=${value}`);
}
