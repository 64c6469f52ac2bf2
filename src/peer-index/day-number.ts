const DAY_MS = 86_400_000;

/** A YYYY-MM-DD date as days since 1970-01-01, the programs' and loss events' day columns. */
export function dayNumber(date: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  return Math.round(utc.getTime() / DAY_MS);
}
