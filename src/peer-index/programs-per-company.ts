import type { RowRange } from "./snapshot.js";

/**
 * The most programs any one company holds in a run of rows (a coverage's): the bound
 * that settles the disclosure rule's company conditions for a large peer group without
 * counting its companies (disclosure-rule.ts, companyConditionsHold). A company's
 * programs within a peer group are a subset of its programs in the coverage.
 * `tally` has an entry per company, all zero, and is left so.
 */
export function maxProgramsPerCompany(company: Uint32Array, range: RowRange, tally: Uint32Array): number {
  let max = 0;
  for (let i = range.start; i < range.end; i++) {
    const n = ++tally[company[i]!]!;
    if (n > max) max = n;
  }
  for (let i = range.start; i < range.end; i++) tally[company[i]!] = 0;
  return max;
}
