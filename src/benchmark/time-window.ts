/**
 * The time window of programs (SEMANTICS.md section 2): a program is in it when
 * start < effective date <= end, start and end being the as-of date minus
 * oldestTrailing and newestTrailing months.
 */
export interface TimeWindow {
  /** Exclusive, YYYY-MM-DD. */
  readonly start: string;
  /** Inclusive, YYYY-MM-DD. */
  readonly end: string;
}

export const OLDEST_TRAILING = [24, 12, 9, 6, 3] as const;
export const NEWEST_TRAILING = [12, 9, 6, 3, 0] as const;

/** The default window: the 24 months up to the as-of date. */
export const DEFAULT_TRAILING = { oldest: 24, newest: 0 } as const;

export function timeWindow(asOf: string, trailing: { oldest: number; newest: number }): TimeWindow {
  return { start: subtractMonths(asOf, trailing.oldest), end: subtractMonths(asOf, trailing.newest) };
}

/** Keeps the day of the month, clamped to the target month's last day: 2026-08-31 - 6 = 2026-02-28. */
export function subtractMonths(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth, 0)).getUTCDate();
  return `${String(targetYear).padStart(4, "0")}-${String(targetMonth).padStart(2, "0")}-${String(Math.min(day, lastDay)).padStart(2, "0")}`;
}

/** Today's date in UTC, YYYY-MM-DD: the as-of date when BENCHMARK_AS_OF is not set. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
