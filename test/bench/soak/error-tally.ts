import type { FailureKind } from "./latency-recorder.js";

/** How many distinct errors the report names; the rest are counted only. */
const NAMED = 10;

/** Every error of the soak (failed requests, failed imports, /readyz or /healthz failing), counted; the first distinct ones named. */
export interface ErrorTally {
  count: number;
  /** The first distinct errors in the order they first happened, each with its count over the run. */
  first: FailureKind[];
}

export function createErrorTally(): ErrorTally {
  return { count: 0, first: [] };
}

export function countError(tally: ErrorTally, what: string, count = 1): void {
  if (count <= 0) return;
  tally.count += count;
  const named = tally.first.find((kind) => kind.what === what);
  if (named) named.count += count;
  else if (tally.first.length < NAMED) tally.first.push({ what, count });
}
