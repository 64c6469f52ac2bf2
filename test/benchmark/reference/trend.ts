import { contributorsOf } from "../../../src/benchmark/contributors.js";
import { disclosureRefusal, type DisclosureRule, type FigureName } from "../../../src/benchmark/disclosure-rule.js";
import { roundRatio, roundRatioTo, scaledToNumber, toCents, type Ratio } from "./exact.js";
import type { CsvRow, ReferenceDataset, ReferenceRequest } from "./model-types.js";
import { matchingCompanyIds, rowInPeerGroup } from "./peer-group.js";
import { rpmCents } from "./rpm.js";
import { quantile } from "./statistics.js";
import { inWindow, subtractMonths, type TimeWindow } from "./time-window.js";

/** One amount's quartiles as answered (SEMANTICS.md section 13). */
export interface ReferenceQuartiles {
  count: number;
  firstQuartile: number | null;
  median: number | null;
  thirdQuartile: number | null;
}

export interface ReferenceTrendPeriod {
  periodStart: string;
  periodEnd: string;
  programCount: number | null;
  companyCount: number | null;
  limit: ReferenceQuartiles | null;
  premium: ReferenceQuartiles | null;
  retention: ReferenceQuartiles | null;
  rpm: ReferenceQuartiles | null;
  lossCount: number;
  limitMedianChangePercent: number | null;
  premiumMedianChangePercent: number | null;
  rpmMedianChangePercent: number | null;
  withheld: { condition: string; threshold: number } | null;
}

export interface ReferenceTrend {
  periodMonths: number;
  periods: ReferenceTrendPeriod[];
}

type Amount = "limit" | "premium" | "retention" | "rpm";

/** A period's programs' values of one amount, in cents (RPMs rounded to cents first, section 7). */
function valuesOf(programs: readonly CsvRow[], amount: Amount): bigint[] {
  if (amount !== "rpm") return programs.filter((p) => (p[amount] ?? "") !== "").map((p) => toCents(p[amount]!));
  return programs
    .filter((p) => (p.premium ?? "") !== "" && (p.limit ?? "") !== "" && toCents(p.limit!) > 0n)
    .map((p) => rpmCents(toCents(p.premium!), toCents(p.limit!)));
}

/** The loss date: the accident date, else the filing date, as a date. */
const lossDate = (loss: CsvRow) =>
  ((loss.accident_date ?? "") !== "" ? loss.accident_date! : (loss.filing_date ?? "")).slice(0, 10);

/** round(100 (a - b) / b, 2) half away from zero, a and b exact ratios, b > 0; as a JSON number. */
function changePercent(a: Ratio, b: Ratio): number {
  // (a - b) / b = (a.num b.den - b.num a.den) / (a.den b.num)
  const num = 100n * (a.num * b.den - b.num * a.den);
  const den = a.den * b.num;
  const magnitude = roundRatioTo({ num: num < 0n ? -num : num, den }, 2);
  return scaledToNumber(num < 0n ? -magnitude : magnitude, 2);
}

/**
 * The market trend (SEMANTICS.md section 13), read literally: each period's programs
 * filtered from the whole data set, sorted, interpolated in BigInt rationals; the
 * disclosure rule, when given, through the plain reading of contributors.ts.
 */
export function marketTrend(
  dataset: ReferenceDataset,
  request: ReferenceRequest & { periodMonths?: number | null; periods?: number | null },
  asOf: string,
  rule: DisclosureRule = { kind: "none" },
): ReferenceTrend {
  const months = request.periodMonths ?? 12;
  const count = request.periods ?? 5;
  const ids = matchingCompanyIds(dataset.companies, request);
  const programs = dataset.programs.filter((p) => rowInPeerGroup(p, ids, request));
  const losses = dataset.losses.filter((l) => rowInPeerGroup(l, ids, request));
  const windows: TimeWindow[] = Array.from({ length: count }, (_, k) => ({
    start: subtractMonths(asOf, (k + 1) * months),
    end: subtractMonths(asOf, k * months),
  }));

  const periods = windows.map((window) => {
    const rows = programs.filter((p) => inWindow(p.effective_date ?? "", window));
    const medians = {} as Record<Amount, Ratio | null>;
    const quartiles = {} as Record<Amount, ReferenceQuartiles>;
    for (const amount of ["limit", "premium", "retention", "rpm"] as const) {
      const values = valuesOf(rows, amount);
      const q = (k: bigint) => scaledToNumber(roundRatio(quantile(values, k, 4n)), 2);
      medians[amount] = values.length === 0 ? null : quantile(values, 2n, 4n);
      quartiles[amount] =
        values.length === 0
          ? { count: 0, firstQuartile: null, median: null, thirdQuartile: null }
          : { count: values.length, firstQuartile: q(1n), median: q(2n), thirdQuartile: q(3n) };
    }
    const sets: [FigureName, CsvRow[]][] = [
      ["programs", rows],
      ["limits", rows.filter((p) => (p.limit ?? "") !== "")],
      ["premiums", rows.filter((p) => (p.premium ?? "") !== "")],
      ["retentions", rows.filter((p) => (p.retention ?? "") !== "")],
      [
        "rates per million",
        rows.filter((p) => (p.premium ?? "") !== "" && (p.limit ?? "") !== "" && toCents(p.limit!) > 0n),
      ],
    ];
    let withheld: ReferenceTrendPeriod["withheld"] = null;
    if (rule.kind !== "none" && rows.length === 0)
      withheld = { condition: "min_companies", threshold: rule.minCompanies };
    for (const [figure, set] of sets) {
      if (withheld) break;
      const refusal = disclosureRefusal(
        rule,
        figure,
        contributorsOf(set.map((p) => ({ companyId: BigInt(p.company_id!), source: p.source || null }))),
      );
      if (refusal) withheld = { condition: refusal.condition, threshold: refusal.threshold };
    }
    return {
      window,
      rows,
      medians,
      quartiles,
      withheld,
      lossCount: losses.filter((l) => window.start < lossDate(l) && lossDate(l) <= window.end).length,
    };
  });

  return {
    periodMonths: months,
    periods: periods.map((period, k): ReferenceTrendPeriod => {
      const older = periods[k + 1];
      const change = (amount: Amount) => {
        const [a, b] = [period.medians[amount], older?.medians[amount] ?? null];
        if (!older || older.withheld || a === null || b === null || b.num === 0n) return null;
        return changePercent(a, b);
      };
      const open = period.withheld === null;
      return {
        periodStart: period.window.start,
        periodEnd: period.window.end,
        programCount: open ? period.rows.length : null,
        companyCount: open ? new Set(period.rows.map((p) => String(BigInt(p.company_id!)))).size : null,
        limit: open ? period.quartiles.limit : null,
        premium: open ? period.quartiles.premium : null,
        retention: open ? period.quartiles.retention : null,
        rpm: open ? period.quartiles.rpm : null,
        lossCount: period.lossCount,
        limitMedianChangePercent: open ? change("limit") : null,
        premiumMedianChangePercent: open ? change("premium") : null,
        rpmMedianChangePercent: open ? change("rpm") : null,
        withheld: period.withheld,
      };
    }),
  };
}
