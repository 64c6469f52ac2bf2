import type { Contributors } from "./peer-statistics.js";

/**
 * The confidentiality rule for peer groups, chosen by the operator (DISCLOSURE_RULE):
 * `none` answers as v2.0 does; `standard` refuses a figure whose programs could be read
 * back to a contributor, with the anchors of the usual practice: at least 5 companies
 * (the DOJ/FTC safety zone, survey publishers), no partner source over 25% of the
 * partner programs (the same), the two largest companies at most 85% (an (n, k)
 * dominance rule, as the Bundesbank's research data centre applies). Shares are in
 * basis points and compared in integers: 25% passes, 25.01% is refused.
 */
export type DisclosureRule =
  | { kind: "none" }
  | { kind: "standard"; minCompanies: number; maxSourceShareBasisPoints: number; maxTopTwoShareBasisPoints: number };

export const STANDARD_RULE = {
  kind: "standard",
  minCompanies: 5,
  maxSourceShareBasisPoints: 2500,
  maxTopTwoShareBasisPoints: 8500,
} as const;

export type DisclosureCondition = "min_companies" | "max_top2_share" | "max_source_share";

/** Why a figure is refused: the condition, its threshold (companies, or a percentage), and words for a broker. */
export interface DisclosureRefusal {
  condition: DisclosureCondition;
  threshold: number;
  message: string;
}

/** What a figure rests on, in the words of a refusal: "this peer group's limits". */
export type FigureName = "programs" | "limits" | "premiums" | "retentions" | "rates per million";

/** Why figures answered beside others are withheld (a trend's period, a loss experience's year): never the shares found. */
export interface Withholding {
  condition: DisclosureCondition;
  threshold: number;
}

/**
 * The condition the first of `sets` to break the rule breaks, in their order, or
 * undefined. An empty set of programs breaks min_companies whatever the threshold:
 * there is nothing to disclose. A set whose contributors were not counted fails
 * closed: an engine that did not count would answer unprotected.
 */
export function firstWithholding(
  rule: DisclosureRule,
  programCount: number,
  sets: readonly { figure: FigureName; contributors: Contributors | undefined }[],
  what: string,
): Withholding | undefined {
  if (rule.kind === "none") return undefined;
  if (programCount === 0) return { condition: "min_companies", threshold: rule.minCompanies };
  for (const { figure, contributors } of sets) {
    if (!contributors) throw new Error(`the peer engine did not count the contributors of ${what}`);
    const refusal = disclosureRefusal(rule, figure, contributors);
    if (refusal) return { condition: refusal.condition, threshold: refusal.threshold };
  }
  return undefined;
}

const WIDEN = "widen the NAICS codes, the exposure range or the window";

/**
 * The first condition `contributors` breaks, or undefined when the figure may be
 * answered. A refusal names the threshold, never the shares found: those would tell
 * how dominant the largest contributors are.
 */
export function disclosureRefusal(
  rule: DisclosureRule,
  figure: FigureName,
  contributors: Contributors,
): DisclosureRefusal | undefined {
  if (rule.kind === "none") return undefined;
  const { companies, programs, topTwoCompanyPrograms, partnerPrograms, largestSourcePrograms } = contributors;
  const whose = figure === "programs" ? "this peer group's programs" : `this peer group's ${figure}`;
  if (companies < rule.minCompanies) {
    const holds =
      figure === "programs"
        ? `this peer group holds ${companyCount(companies)}`
        : `${whose} come from ${companyCount(companies)}`;
    return {
      condition: "min_companies",
      threshold: rule.minCompanies,
      message: `${holds}; at least ${rule.minCompanies} are needed to keep contributors' programs confidential: ${WIDEN}`,
    };
  }
  if (above(topTwoCompanyPrograms, programs, rule.maxTopTwoShareBasisPoints)) {
    const percent = percentOf(rule.maxTopTwoShareBasisPoints);
    return {
      condition: "max_top2_share",
      threshold: percent,
      message: `two companies hold more than ${percent}% of ${whose}, which would expose their programs: ${WIDEN}`,
    };
  }
  if (above(largestSourcePrograms, partnerPrograms, rule.maxSourceShareBasisPoints)) {
    const percent = percentOf(rule.maxSourceShareBasisPoints);
    return {
      condition: "max_source_share",
      threshold: percent,
      message: `one data-sharing partner contributed more than ${percent}% of the partner data behind ${whose}, which would expose its programs: ${WIDEN}`,
    };
  }
  return undefined;
}

/**
 * Whether any `programs` programs of which no company holds more than
 * `maxPerCompany` meet the two company conditions, whoever holds them: they come from
 * at least programs / maxPerCompany companies, and the two largest hold at most twice
 * maxPerCompany. A peer group of a few hundred programs is settled so without counting
 * its companies; a refusal always rests on counts (contributor-counts.ts).
 */
export function companyConditionsHold(rule: DisclosureRule, programs: number, maxPerCompany: number): boolean {
  if (rule.kind === "none") return true;
  if (maxPerCompany === 0) return programs === 0 && rule.minCompanies === 0;
  return (
    Math.ceil(programs / maxPerCompany) >= rule.minCompanies &&
    !above(Math.min(programs, 2 * maxPerCompany), programs, rule.maxTopTwoShareBasisPoints)
  );
}

/** The rule as /readyz and the start-up log show it, shares as percentages. */
export function describeRule(rule: DisclosureRule): Record<string, string | number> {
  if (rule.kind === "none") return { rule: "none" };
  return {
    rule: rule.kind,
    minCompanies: rule.minCompanies,
    maxSourceSharePercent: percentOf(rule.maxSourceShareBasisPoints),
    maxTop2SharePercent: percentOf(rule.maxTopTwoShareBasisPoints),
  };
}

/** part / whole > basisPoints / 10,000, in integers (exact for counts far past any peer group). */
function above(part: number, whole: number, basisPoints: number): boolean {
  return whole > 0 && part * 10_000 > basisPoints * whole;
}

const percentOf = (basisPoints: number) => basisPoints / 100;
const companyCount = (n: number) => (n === 1 ? "1 company" : `${n} companies`);
