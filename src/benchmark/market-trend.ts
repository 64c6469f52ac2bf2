import { Decimal, roundHalfAwayFromZero, toNumber } from "./decimal.js";
import { firstWithholding, type DisclosureRule, type FigureName, type Withholding } from "./disclosure-rule.js";
import type { TimeWindow } from "./time-window.js";
import { TREND_AMOUNTS, type PeriodStatistics, type QuartileStatistics, type TrendAmount } from "./trend-statistics.js";

/** One amount's quartiles as answered: rounded to cents, undefined (null) when no program has it. */
export interface AnsweredQuartiles {
  count: number;
  firstQuartile?: number;
  median?: number;
  thirdQuartile?: number;
}

/** One period as answered (SEMANTICS.md section 13): `figures` is undefined when the period is withheld. */
export interface TrendPeriodAnswer {
  periodStart: string;
  periodEnd: string;
  lossCount: number;
  figures?: {
    programCount: number;
    companyCount: number;
    amounts: Record<TrendAmount, AnsweredQuartiles>;
    /** Undefined (null) where section 13 says so. */
    changes: Record<"limit" | "premium" | "rpm", number | undefined>;
  };
  withheld?: Withholding;
}

/** Each set of a period in the order the rule checks them (section 13), with its words in a refusal. */
const SETS: readonly { set: "programs" | TrendAmount; figure: FigureName }[] = [
  { set: "programs", figure: "programs" },
  { set: "limit", figure: "limits" },
  { set: "premium", figure: "premiums" },
  { set: "retention", figure: "retentions" },
  { set: "rpm", figure: "rates per million" },
];

/**
 * The answer's periods from the engine's statistics: the rule first (a withheld
 * period keeps only its bounds and loss count, which are public), then quartiles
 * rounded to cents and the changes of the exact medians against the next older period.
 */
export function trendAnswer(
  windows: readonly TimeWindow[],
  statistics: readonly PeriodStatistics[],
  rule: DisclosureRule,
): TrendPeriodAnswer[] {
  const withheld = statistics.map((period) => withheldOf(rule, period));
  return statistics.map((period, k) => {
    const answer: TrendPeriodAnswer = {
      periodStart: windows[k]!.start,
      periodEnd: windows[k]!.end,
      lossCount: period.lossCount,
    };
    if (withheld[k]) return { ...answer, withheld: withheld[k] };
    const older = k + 1 < statistics.length && !withheld[k + 1] ? statistics[k + 1] : undefined;
    const change = (amount: TrendAmount) => older && changePercent(period.amounts[amount], older.amounts[amount]);
    answer.figures = {
      programCount: period.programCount,
      companyCount: period.companyCount,
      amounts: Object.fromEntries(TREND_AMOUNTS.map((amount) => [amount, answered(period.amounts[amount])])) as Record<
        TrendAmount,
        AnsweredQuartiles
      >,
      changes: { limit: change("limit"), premium: change("premium"), rpm: change("rpm") },
    };
    return answer;
  });
}

/** The first set of the period that breaks the rule (section 12's conditions, section 13's order of sets), or undefined. */
function withheldOf(rule: DisclosureRule, period: PeriodStatistics): Withholding | undefined {
  const sets = SETS.map(({ set, figure }) => ({ figure, contributors: period.contributors?.[set] }));
  return firstWithholding(rule, period.programCount, sets, "a trend period");
}

function answered({ count, firstQuartile, median, thirdQuartile }: QuartileStatistics): AnsweredQuartiles {
  if (count === 0) return { count };
  const cents = (q: Decimal) => toNumber(roundHalfAwayFromZero(q, 2));
  return { count, firstQuartile: cents(firstQuartile), median: cents(median), thirdQuartile: cents(thirdQuartile) };
}

/** round(100 (m_k - m_k+1) / m_k+1, 2) of the exact medians; undefined without values or with m_k+1 = 0. */
export function changePercent(newer: QuartileStatistics, older: QuartileStatistics): number | undefined {
  if (newer.count === 0 || older.count === 0 || older.median.isZero()) return undefined;
  const percent = new Decimal(100).times(newer.median.minus(older.median)).div(older.median);
  const rounded = roundHalfAwayFromZero(percent, 2);
  return toNumber(rounded.isZero() ? new Decimal(0) : rounded);
}
