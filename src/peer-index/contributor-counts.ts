import type { AssessmentContributors, Contributors } from "../benchmark/peer-statistics.js";
import { tallyCompanies, type CompanyTally } from "./company-tallies.js";
import { scratchKeys } from "./scratch.js";
import { CURATED, NO_BAND, type PeerSnapshot } from "./snapshot.js";

/**
 * Who the matched program rows (`rows[0..count)`) came from, for the disclosure rule
 * (peer-statistics.ts defines Contributors; contributors.ts is the plain reading they
 * must equal), for up to four figures at once: all the rows, and those with a limit,
 * a premium, a retention. O(rows), in a few sequential passes:
 * - one over the rows, writing each row's company (its dense index) and which of the
 *   three amounts it has (limit 4 + premium 2 + retention 1) as one key, and counting
 *   the rows per source and amounts (sources are a snapshot's few partners);
 * - a radix sort of the keys by company, and one pass over its runs, one a company,
 *   adding up each figure's companies and two largest (company-tallies.ts).
 * Counting into an array indexed by company instead is one pass, but its reads land
 * at random in megabytes of counts that the scan has just pushed out of the cache:
 * at Advisen scale, over 338K peer programs, 24 ms against the sort's 10.
 */


/** Each figure of an assessment, in the order of tallyCompanies's tallies, and the bit of its amount in a key (none: all rows). */
const FIGURES = [
  { name: "programs", bit: 0 },
  { name: "limit", bit: 4 },
  { name: "premium", bit: 2 },
  { name: "retention", bit: 1 },
] as const;

/**
 * An assessment's four figures. A row has an amount when it has a band (NO_BAND is
 * NULL): one byte read instead of eight.
 */
export function assessmentContributors(snapshot: PeerSnapshot, rows: Uint32Array, count: number): AssessmentContributors {
  const { company, source, limitBand, premiumBand, retentionBand } = snapshot.programs;
  const [keys, spare] = scratchKeys(count);
  const perSourceAndAmounts = new Uint32Array(snapshot.sources.length * 8);
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const amounts = (+(limitBand[i] !== NO_BAND) << 2) | (+(premiumBand[i] !== NO_BAND) << 1) | +(retentionBand[i] !== NO_BAND);
    keys[r] = company[i]! * 8 + amounts;
    perSourceAndAmounts[source[i]! * 8 + amounts]!++;
  }
  const tallies = tallyCompanies(keys, spare, count, snapshot.companyCount);
  const result = {} as AssessmentContributors;
  for (let k = 0; k < FIGURES.length; k++) {
    const { name, bit } = FIGURES[k]!;
    const perSource = new Uint32Array(snapshot.sources.length);
    for (let slot = 0; slot < perSourceAndAmounts.length; slot++) {
      if (bit === 0 || (slot & bit) !== 0) perSource[slot >> 3]! += perSourceAndAmounts[slot]!;
    }
    result[name] = contributorsFrom(tallies[k]!, perSource);
  }
  return result;
}

/**
 * The contributors of the rows having a value in `amount` (NaN is NULL): the RPMs, the
 * limits of the median limit; of all the rows without one (the program count).
 */
export function contributorsOfRows(snapshot: PeerSnapshot, rows: Uint32Array, count: number, amount?: Float64Array): Contributors {
  const { company, source } = snapshot.programs;
  const [keys, spare] = scratchKeys(count);
  const perSource = new Uint32Array(snapshot.sources.length);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    if (amount !== undefined && amount[i] !== amount[i]) continue;
    keys[n++] = company[i]! * 8;
    perSource[source[i]!]!++;
  }
  return contributorsFrom(tallyCompanies(keys, spare, n, snapshot.companyCount)[0], perSource);
}

/** One figure's Contributors: its companies from their tally, its sources from their counts. */
function contributorsFrom(tally: CompanyTally, perSource: Uint32Array): Contributors {
  let programs = 0;
  let largestSource = 0;
  for (let s = 0; s < perSource.length; s++) {
    const n = perSource[s]!;
    programs += n;
    if (s !== CURATED && n > largestSource) largestSource = n;
  }
  return {
    programs,
    companies: tally.companies,
    topTwoCompanyPrograms: tally.topTwo,
    partnerPrograms: programs - perSource[CURATED]!,
    largestSourcePrograms: largestSource,
  };
}
