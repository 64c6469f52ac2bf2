/** Every request that did not get its 200 (or stated other peers), counted, with a few examples kept. */
export interface FailureLog {
  count: number;
  examples: string[];
}

export function createFailureLog(): FailureLog {
  return { count: 0, examples: [] };
}

export function recordFailure(log: FailureLog, what: string, howMany = 1): void {
  if (howMany <= 0) return;
  log.count += howMany;
  if (log.examples.length < 20) log.examples.push(what);
}
