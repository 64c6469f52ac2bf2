/** The time window of programs (SEMANTICS.md section 2). */
export interface TimeWindow {
  /** Exclusive lower end, `YYYY-MM-DD`. */
  start: string;
  /** Inclusive upper end, `YYYY-MM-DD`. */
  end: string;
}

/** `0`, `null` and absent all mean "not given". */
function given(value: number | null | undefined): value is number {
  return value !== undefined && value !== null && value !== 0;
}

/** O and N after the defaults: neither given 24/0, only O given O/0, only N given 24/N. */
export function trailingMonths(
  oldestTrailing: number | null | undefined,
  newestTrailing: number | null | undefined,
): { oldest: number; newest: number } {
  return {
    oldest: given(oldestTrailing) ? oldestTrailing : 24,
    newest: given(newestTrailing) ? newestTrailing : 0,
  };
}

/** `date` (`YYYY-MM-DD`) minus `months`, the day clamped to the last day of the target month. */
export function subtractMonths(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  const targetDay = Math.min(day, lastDay);
  return `${String(targetYear).padStart(4, "0")}-${String(targetMonth).padStart(2, "0")}-${String(targetDay).padStart(2, "0")}`;
}

/** start = A - O months, end = A - N months. */
export function timeWindow(
  asOf: string,
  oldestTrailing: number | null | undefined,
  newestTrailing: number | null | undefined,
): TimeWindow {
  const { oldest, newest } = trailingMonths(oldestTrailing, newestTrailing);
  return { start: subtractMonths(asOf, oldest), end: subtractMonths(asOf, newest) };
}

/** start < effective date <= end; `YYYY-MM-DD` text compares as dates. */
export function inWindow(effectiveDate: string, window: TimeWindow): boolean {
  const date = effectiveDate.slice(0, 10);
  return window.start < date && date <= window.end;
}
