import type { Contributors } from "./peer-statistics.js";

/** The source of the public, curated programs: not a partner's (DATA-FORMAT.md). */
export const CURATED_SOURCE = "curated";

/**
 * Contributors of a list of programs, by the definition of peer-statistics.ts: the
 * plain reading, which the engines' counts are tested against. `source` null or ""
 * is no source: a partner's, all of them one source.
 */
export function contributorsOf(
  programs: Iterable<{ companyId: number | bigint | string; source: string | null }>,
): Contributors {
  const byCompany = new Map<number | bigint | string, number>();
  const bySource = new Map<string, number>();
  let count = 0;
  let partnerPrograms = 0;
  for (const { companyId, source } of programs) {
    count++;
    byCompany.set(companyId, (byCompany.get(companyId) ?? 0) + 1);
    if (source === CURATED_SOURCE) continue;
    partnerPrograms++;
    const key = source ?? "";
    bySource.set(key, (bySource.get(key) ?? 0) + 1);
  }
  return {
    programs: count,
    companies: byCompany.size,
    topTwoCompanyPrograms: topTwo(byCompany.values()),
    partnerPrograms,
    largestSourcePrograms: Math.max(0, ...bySource.values()),
  };
}

/** The sum of the two largest counts (the one, when there is one). */
export function topTwo(counts: Iterable<number>): number {
  let first = 0;
  let second = 0;
  for (const n of counts) {
    if (n > first) [first, second] = [n, first];
    else if (n > second) second = n;
  }
  return first + second;
}
