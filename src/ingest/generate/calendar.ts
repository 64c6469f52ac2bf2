/**
 * Dates counted back from the as-of date, formatted once. Formatting a Date per row
 * would dominate the cost of writing four million programs; a lookup does not.
 */
export interface Calendar {
  /** `YYYY-MM-DD` of the day `daysBack` days before the as-of date (0 = the as-of date). */
  date(daysBack: number): string;
  /** How many days back the first day of that day's month is. */
  monthStart(daysBack: number): number;
  /** The number of days covered: `daysBack` runs from 0 to `days - 1`. */
  readonly days: number;
}

const DAY_MS = 86_400_000;

export function createCalendar(asOf: string, days: number): Calendar {
  const end = parseIsoDate(asOf);
  const dates: string[] = new Array<string>(days);
  const monthStarts = new Int32Array(days);
  for (let i = 0; i < days; i++) {
    const day = new Date(end - i * DAY_MS);
    dates[i] = day.toISOString().slice(0, 10);
    monthStarts[i] = Math.min(i + day.getUTCDate() - 1, days - 1);
  }
  return {
    date: (daysBack) => dates[daysBack] as string,
    monthStart: (daysBack) => monthStarts[daysBack] as number,
    days,
  };
}

/** Milliseconds since the epoch of a `YYYY-MM-DD` date at UTC midnight; throws on anything else. */
export function parseIsoDate(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== text) {
    throw new RangeError(`"${text}" is not a date of the form YYYY-MM-DD`);
  }
  return time;
}

/** Today's date at UTC, `YYYY-MM-DD`. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
