import { companyConditionsHold, type DisclosureRule } from "../benchmark/disclosure-rule.js";
import type { AssessmentContributors, Contributors } from "../benchmark/peer-statistics.js";
import type { PeriodStatistics } from "../benchmark/trend-statistics.js";
import { tallyCompanies, type CompanyTally } from "./company-tallies.js";
import { scratchKeys } from "./scratch.js";
import { AMOUNTS_HELD } from "./band-triples.js";
import { CURATED, type PeerSnapshot } from "./snapshot.js";

/**
 * Who the matched program rows (`rows[0..count)`) came from, for the disclosure rule
 * (peer-statistics.ts defines Contributors; contributors.ts is the plain reading they
 * must equal), for up to four figures at once: all the rows, and those with a limit,
 * a premium, a retention. O(rows), in a few sequential passes:
 * - one over the rows, counting them per source and amounts (sources are a snapshot's
 *   few partners), and, when the companies must be counted, writing each row's company
 *   (its dense index) and which of the three amounts it has (limit 4 + premium 2 +
 *   retention 1) as one key;
 * - a radix sort of the keys by company, and one pass over its runs, one a company,
 *   adding up each figure's companies and two largest (company-tallies.ts).
 * Counting into an array indexed by company instead is one pass, but its reads land
 * at random in megabytes of counts that the scan has just pushed out of the cache:
 * at Advisen scale, over 338K peer programs, 24 ms against the sort's 10.
 *
 * The companies need no counting when a CompanyBound settles them: a group of n
 * programs in a coverage where no company holds more than m has at least n / m
 * companies and its two largest hold at most 2m, so a broad group meets the rule's
 * company conditions whoever its companies are. Such Contributors carry those bounds
 * (`bounds: true`) instead of counts; a group the bound does not settle is counted,
 * so a refusal always rests on counts.
 */

/** What settles a large group's company conditions uncounted: the rule, and the most programs one company holds in the coverage. */
export interface CompanyBound {
  rule: DisclosureRule;
  maxPerCompany: number;
}

/** Whether `programs` rows are settled by the bound (monotone: more rows settle too). */
export const settles = (bound: CompanyBound | undefined, programs: number) =>
  bound !== undefined && companyConditionsHold(bound.rule, programs, bound.maxPerCompany);

/** Each figure of an assessment, in the order of tallyCompanies's tallies, and the bit of its amount in a key (none: all rows). */
const FIGURES = [
  { name: "programs", bit: 0 },
  { name: "limit", bit: 4 },
  { name: "premium", bit: 2 },
  { name: "retention", bit: 1 },
] as const;

/**
 * An assessment's four figures. Which amounts a row has comes from its band triple
 * (band-triples.ts): two bytes read instead of 24.
 */
export function assessmentContributors(
  snapshot: PeerSnapshot,
  rows: Uint32Array,
  count: number,
  bound?: CompanyBound,
): AssessmentContributors {
  const { company, source, bandTriple } = snapshot.programs;
  const perSourceAndAmounts = new Uint32Array(snapshot.sources.length * 8);
  // Keys are written in the same pass unless the bound may settle every figure.
  let keys = settles(bound, count) ? undefined : scratchKeys(count);
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const amounts = AMOUNTS_HELD[bandTriple[i]!]!;
    if (keys) keys[0][r] = company[i]! * 8 + amounts;
    perSourceAndAmounts[source[i]! * 8 + amounts]!++;
  }
  const perSource = FIGURES.map(({ bit }) => {
    const counts = new Uint32Array(snapshot.sources.length);
    for (let slot = 0; slot < perSourceAndAmounts.length; slot++) {
      if (bit === 0 || (slot & bit) !== 0) counts[slot >> 3]! += perSourceAndAmounts[slot]!;
    }
    return counts;
  });
  const result = {} as AssessmentContributors;
  if (!keys && perSource.every((counts) => settles(bound, sum(counts)))) {
    FIGURES.forEach(({ name }, k) => (result[name] = boundedContributors(perSource[k]!, bound!)));
    return result;
  }
  if (!keys) {
    keys = scratchKeys(count);
    for (let r = 0; r < count; r++) {
      const i = rows[r]!;
      keys[0][r] = company[i]! * 8 + AMOUNTS_HELD[bandTriple[i]!]!;
    }
  }
  const tallies = tallyCompanies(keys[0], keys[1], count, snapshot.companyCount);
  FIGURES.forEach(({ name }, k) => (result[name] = contributorsFrom(tallies[k]!, perSource[k]!)));
  return result;
}

/**
 * The contributors of the rows having a value in `amount` (NaN is NULL): the RPMs, the
 * limits of the median limit; of all the rows without one (the program count).
 */
export function contributorsOfRows(
  snapshot: PeerSnapshot,
  rows: Uint32Array,
  count: number,
  amount?: Float64Array,
  bound?: CompanyBound,
): Contributors {
  const { company, source } = snapshot.programs;
  const perSource = new Uint32Array(snapshot.sources.length);
  const mayBeSettled = settles(bound, count);
  const [keys, spare] = scratchKeys(mayBeSettled ? 0 : count);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    if (amount !== undefined && amount[i] !== amount[i]) continue;
    if (!mayBeSettled) keys[n] = company[i]! * 8;
    n++;
    perSource[source[i]!]!++;
  }
  if (mayBeSettled && settles(bound, n)) return boundedContributors(perSource, bound!);
  if (mayBeSettled) return contributorsOfRows(snapshot, rows, count, amount);
  return contributorsFrom(tallyCompanies(keys, spare, n, snapshot.companyCount)[0], perSource);
}

/** One figure's Contributors: its companies from their tally, its sources from their counts. */
function contributorsFrom(tally: CompanyTally, perSource: Uint32Array): Contributors {
  const { programs, partnerPrograms, largestSourcePrograms } = sourcesOf(perSource);
  return {
    programs,
    companies: tally.companies,
    topTwoCompanyPrograms: tally.topTwo,
    partnerPrograms,
    largestSourcePrograms,
  };
}

/** One figure's Contributors when the bound settles its companies: at least n / m of them, the two largest at most 2m. */
export function boundedContributors(perSource: Uint32Array, { maxPerCompany }: CompanyBound): Contributors {
  const { programs, partnerPrograms, largestSourcePrograms } = sourcesOf(perSource);
  return {
    programs,
    companies: Math.ceil(programs / maxPerCompany),
    topTwoCompanyPrograms: Math.min(programs, 2 * maxPerCompany),
    partnerPrograms,
    largestSourcePrograms,
    bounds: true,
  };
}

function sourcesOf(
  perSource: Uint32Array,
): Pick<Contributors, "programs" | "partnerPrograms" | "largestSourcePrograms"> {
  let programs = 0;
  let largestSource = 0;
  for (let s = 0; s < perSource.length; s++) {
    const n = perSource[s]!;
    programs += n;
    if (s !== CURATED && n > largestSource) largestSource = n;
  }
  return { programs, partnerPrograms: programs - perSource[CURATED]!, largestSourcePrograms: largestSource };
}

function sum(counts: Uint32Array): number {
  let total = 0;
  for (const n of counts) total += n;
  return total;
}

/** Who a market-trend period's sets rest on (SEMANTICS.md section 13): its programs, then those with each amount. */
export function trendContributors(
  snapshot: PeerSnapshot,
  rows: Uint32Array,
  bound: CompanyBound | undefined,
): NonNullable<PeriodStatistics["contributors"]> {
  const { programs, limit, premium, retention } = assessmentContributors(snapshot, rows, rows.length, bound);
  return {
    programs,
    limit,
    premium,
    retention,
    rpm: contributorsOfRows(snapshot, rows, rows.length, snapshot.programs.rpm, bound),
  };
}
