import type { FieldProblems } from "./field-problems.js";
import { subtractMonths, type TimeWindow } from "./time-window.js";

/** How a market trend splits time (SEMANTICS.md section 13), after the defaults. */
export interface TrendShape {
  periodMonths: number;
  periods: number;
}

const PERIOD_MONTHS = [3, 6, 12] as const;
const DEFAULT_SHAPE: TrendShape = { periodMonths: 12, periods: 5 };
const MIN_PERIODS = 2;
const MAX_PERIODS = 12;
/** periods * periodMonths: ten years, the book's depth (CONVENTIONS.md, `cpb generate`). */
const MAX_MONTHS = 120;

/**
 * periodMonths and periods (SEMANTICS.md section 13): absent or null means the default;
 * anything else, 0 included, must be valid, so the fields are `optional` in the proto
 * and 0 is a value here, not "not given" as for the trailing inputs of section 2. The
 * product rule is checked only when both are valid, and names `periods`.
 */
export function readTrendShape(
  input: { periodMonths?: number; periods?: number },
  problems: FieldProblems,
): TrendShape | undefined {
  const periodMonths = input.periodMonths ?? DEFAULT_SHAPE.periodMonths;
  const periods = input.periods ?? DEFAULT_SHAPE.periods;
  let valid = problems.usable("periodMonths") && problems.usable("periods");
  if (problems.usable("periodMonths") && !(PERIOD_MONTHS as readonly number[]).includes(periodMonths)) {
    problems.add("periodMonths", `must be one of ${PERIOD_MONTHS.join(", ")}, not ${periodMonths}`);
    valid = false;
  }
  if (problems.usable("periods") && !(Number.isInteger(periods) && periods >= MIN_PERIODS && periods <= MAX_PERIODS)) {
    problems.add("periods", `must be an integer from ${MIN_PERIODS} to ${MAX_PERIODS}, not ${periods}`);
    valid = false;
  }
  if (valid && periods * periodMonths > MAX_MONTHS) {
    problems.add(
      "periods",
      `times periodMonths (${periodMonths}) must be at most ${MAX_MONTHS} months, not ${periods * periodMonths}`,
    );
    valid = false;
  }
  return valid ? { periodMonths, periods } : undefined;
}

/**
 * The periods, newest first: period k runs from A - (k+1)M months (exclusive) to
 * A - kM months (inclusive), each bound computed from A directly (section 2's month
 * subtraction clamps the day, so stepping from the previous bound would drift:
 * 2026-08-31 - 6 = 2026-02-28, but 2026-02-28 - 6 = 2025-08-28, not 2025-08-31).
 * Adjacent periods share a bound, so no program is in two.
 */
export function trendPeriods(asOf: string, { periodMonths, periods }: TrendShape): TimeWindow[] {
  return Array.from({ length: periods }, (_, k) => ({
    start: subtractMonths(asOf, (k + 1) * periodMonths),
    end: subtractMonths(asOf, k * periodMonths),
  }));
}

/** The whole span the periods cover: after the oldest start, up to the newest end. */
export function trendSpan(periods: readonly TimeWindow[]): TimeWindow {
  return { start: periods[periods.length - 1]!.start, end: periods[0]!.end };
}
