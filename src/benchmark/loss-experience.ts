import { Decimal, roundHalfAwayFromZero, toNumber } from "./decimal.js";
import { firstWithholding, type DisclosureRule, type Withholding } from "./disclosure-rule.js";
import type {
  LossExperienceFigures,
  LossExperienceSpan,
  LossExperienceStatistics,
  PaidLossStatistics,
} from "./loss-experience-statistics.js";

/** The paid losses' severity as answered: quartiles and mean rounded to cents, the largest in whole dollars. */
export interface AnsweredSeverity {
  firstQuartile: number;
  median: number;
  thirdQuartile: number;
  average: number;
  max: number;
}

/** One limit as answered: the limit in dollars (as read, in cents), the paid losses above it, their share. */
export interface AnsweredExceeding {
  limit: number;
  count: number;
  /** Undefined (null) without paid losses. */
  percent?: number;
}

/**
 * The members a year and the total share (SEMANTICS.md section 15); undefined is the
 * answer's null: programCount and frequencyPer100 when withheld, frequencyPer100
 * without programs, severity without paid losses.
 */
export interface LossExperienceFiguresAnswer {
  programCount?: number;
  lossCount: number;
  paidLossCount: number;
  frequencyPer100?: number;
  severity?: AnsweredSeverity;
  exceeding: AnsweredExceeding[];
  withheld?: Withholding;
}

export interface LossExperienceAnswer {
  years: (LossExperienceFiguresAnswer & { year: number })[];
  total: LossExperienceFiguresAnswer & { fromYear: number; toYear: number };
}

/**
 * The answer from the engine's statistics (SEMANTICS.md section 15): the rule per year on
 * the year's programs (loss figures stay: loss events are public), then the total's own
 * check on all the years' programs. When the total's own set passes but a year is
 * withheld, the total's program count is withheld too, under the oldest withheld year's
 * condition: a withheld year's count would otherwise follow by subtraction.
 */
export function lossExperienceAnswer(
  span: LossExperienceSpan,
  limits: readonly Decimal[],
  statistics: LossExperienceStatistics,
  rule: DisclosureRule,
): LossExperienceAnswer {
  const years = statistics.years.map((figures, k) => ({
    year: span.first + k,
    ...figuresAnswer(figures, limits, withheldOf(rule, figures)),
  }));
  const totalWithheld = withheldOf(rule, statistics.total) ?? years.find((year) => year.withheld)?.withheld;
  return {
    years,
    total: { fromYear: span.first, toYear: span.last, ...figuresAnswer(statistics.total, limits, totalWithheld) },
  };
}

/** The condition the programs break (section 12), or undefined. */
function withheldOf(rule: DisclosureRule, figures: LossExperienceFigures): Withholding | undefined {
  const sets = [{ figure: "programs" as const, contributors: figures.contributors }];
  return firstWithholding(rule, figures.programCount, sets, "a loss experience");
}

function figuresAnswer(
  { programCount, lossCount, paid, exceeding }: LossExperienceFigures,
  limits: readonly Decimal[],
  withheld: Withholding | undefined,
): LossExperienceFiguresAnswer {
  const answer: LossExperienceFiguresAnswer = {
    lossCount,
    paidLossCount: paid.count,
    severity: severityOf(paid),
    exceeding: limits.map((limit, j) => ({
      limit: toNumber(limit),
      count: exceeding[j]!,
      percent: percentOf(exceeding[j]!, paid.count),
    })),
  };
  if (withheld) return { ...answer, withheld };
  // Every loss event counts, $0 ones included: a claim made is a claim.
  return { ...answer, programCount, frequencyPer100: percentOf(lossCount, programCount) };
}

function severityOf({ count, firstQuartile, median, thirdQuartile, sum, max }: PaidLossStatistics) {
  if (count === 0) return undefined;
  return {
    firstQuartile: cents(firstQuartile),
    median: cents(median),
    thirdQuartile: cents(thirdQuartile),
    average: cents(sum.div(count)),
    max,
  };
}

/** round(100 part / whole, 2); undefined when whole is 0. */
function percentOf(part: number, whole: number): number | undefined {
  return whole === 0 ? undefined : cents(new Decimal(100).times(part).div(whole));
}

const cents = (value: Decimal) => toNumber(roundHalfAwayFromZero(value, 2));
