import { contributorsOf } from "../../../src/benchmark/contributors.js";
import { disclosureRefusal, type DisclosureRule } from "../../../src/benchmark/disclosure-rule.js";
import { centsToNumber, roundRatioTo, scaledToNumber, toCents, type Ratio } from "./exact.js";
import { lossYearOf } from "./loss-years.js";
import type { CsvRow, ReferenceDataset, ReferenceRequest } from "./model-types.js";
import { matchingCompanyIds, rowInPeerGroup } from "./peer-group.js";
import { maximum, quantile } from "./statistics.js";

type Withheld = { condition: string; threshold: number } | null;

/** The members a year and the total share (SEMANTICS.md section 15). */
export interface ReferenceLossFigures {
  programCount: number | null;
  lossCount: number;
  paidLossCount: number;
  frequencyPer100: number | null;
  severity: {
    firstQuartile: number;
    median: number;
    thirdQuartile: number;
    average: number;
    max: number;
  } | null;
  exceeding: { limit: number; count: number; percent: number | null }[];
  withheld: Withheld;
}

export interface ReferenceLossExperience {
  years: (ReferenceLossFigures & { year: number })[];
  total: ReferenceLossFigures & { fromYear: number; toYear: number };
}

/** round(ratio, 2), half away from zero, as a JSON number. */
const twoPlaces = (ratio: Ratio) => scaledToNumber(roundRatioTo(ratio, 2), 2);

/** The year of a program: its effective date's. */
const programYear = (program: CsvRow) => Number((program.effective_date ?? "").slice(0, 4));

/**
 * The loss experience (SEMANTICS.md section 15), read literally: each year's programs
 * and loss events filtered from the whole data set, amounts in BigInt, quartiles and
 * ratios in BigInt rationals, rounded once; the disclosure rule, when given, through
 * the plain reading of contributors.ts.
 */
export function lossExperience(
  dataset: ReferenceDataset,
  request: ReferenceRequest,
  asOf: string,
  rule: DisclosureRule = { kind: "none" },
): ReferenceLossExperience {
  const last = Number(asOf.slice(0, 4)) - 1;
  const first = last - (request.years ?? 5) + 1;
  const limits = (request.limits ?? []).map(toCents);
  const ids = matchingCompanyIds(dataset.companies, request);
  const programs = dataset.programs.filter((p) => rowInPeerGroup(p, ids, request));
  const losses = dataset.losses.filter((l) => rowInPeerGroup(l, ids, request));
  const inYears = (year: number, from: number, to: number) => from <= year && year <= to;
  const setOf = (from: number, to: number) => ({
    programs: programs.filter((p) => inYears(programYear(p), from, to)),
    losses: losses.filter((l) => inYears(lossYearOf(l), from, to)),
  });

  const years = Array.from({ length: last - first + 1 }, (_, k) => {
    const set = setOf(first + k, first + k);
    return { year: first + k, ...figuresOf(set.programs, set.losses, limits, withheldOf(rule, set.programs)) };
  });
  const all = setOf(first, last);
  const ownWithheld = withheldOf(rule, all.programs);
  const oldestWithheld = years.find((year) => year.withheld !== null)?.withheld ?? null;
  return {
    years,
    total: {
      fromYear: first,
      toYear: last,
      ...figuresOf(all.programs, all.losses, limits, ownWithheld ?? oldestWithheld),
    },
  };
}

/** Section 12 on a set of programs: an empty set breaks min_companies. */
function withheldOf(rule: DisclosureRule, programs: readonly CsvRow[]): Withheld {
  if (rule.kind === "none") return null;
  if (programs.length === 0) return { condition: "min_companies", threshold: rule.minCompanies };
  const refusal = disclosureRefusal(
    rule,
    "programs",
    contributorsOf(programs.map((p) => ({ companyId: BigInt(p.company_id!), source: p.source || null }))),
  );
  return refusal ? { condition: refusal.condition, threshold: refusal.threshold } : null;
}

function figuresOf(
  programs: readonly CsvRow[],
  losses: readonly CsvRow[],
  limits: readonly bigint[],
  withheld: Withheld,
): ReferenceLossFigures {
  // Whole dollars; a claim made is a claim, but only those above $0 were paid.
  const paid = losses.map((l) => BigInt(l.total_amount ?? "0")).filter((amount) => amount > 0n);
  const n = BigInt(paid.length);
  const sum = paid.reduce((total, amount) => total + amount, 0n);
  const open = withheld === null;
  return {
    programCount: open ? programs.length : null,
    lossCount: losses.length,
    paidLossCount: paid.length,
    frequencyPer100:
      open && programs.length > 0
        ? twoPlaces({ num: 100n * BigInt(losses.length), den: BigInt(programs.length) })
        : null,
    severity:
      paid.length === 0
        ? null
        : {
            firstQuartile: twoPlaces(quantile(paid, 1n, 4n)),
            median: twoPlaces(quantile(paid, 2n, 4n)),
            thirdQuartile: twoPlaces(quantile(paid, 3n, 4n)),
            average: twoPlaces({ num: sum, den: n }),
            max: Number(maximum(paid)),
          },
    exceeding: limits.map((limit) => {
      // Dollars against cents: an amount passes the limit when its cents are greater.
      const count = paid.filter((amount) => amount * 100n > limit).length;
      return {
        limit: centsToNumber(limit),
        count,
        percent: paid.length === 0 ? null : twoPlaces({ num: 100n * BigInt(count), den: n }),
      };
    }),
    withheld,
  };
}
