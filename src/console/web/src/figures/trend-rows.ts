import type { TrendPeriod, TrendQuartiles } from "../api/types.js";
import type { CsvRows } from "../export/csv.js";

/** The three amounts the trend follows, in the order the chart stacks them (top first). */
export const TREND_MEASURES = [
  { key: "rpm", title: "RPM", change: "rpmMedianChangePercent" },
  { key: "premium", title: "Premium", change: "premiumMedianChangePercent" },
  { key: "limit", title: "Limit", change: "limitMedianChangePercent" },
] as const;

export type TrendMeasure = (typeof TREND_MEASURES)[number];

export const quartilesOf = (period: TrendPeriod, measure: TrendMeasure): TrendQuartiles | null => period[measure.key];
export const changeOf = (period: TrendPeriod, measure: TrendMeasure): number | null => period[measure.change];

/** A change as the API rounded it, signed: "+3.25%", "-1.5%", "0%"; "–" when there is none to give. */
export function changeText(change: number | null): string {
  if (change === null) return "–";
  return `${change > 0 ? "+" : ""}${change}%`;
}

/** Why a period is withheld, short enough for a table cell (the condition of SEMANTICS.md 12). */
export function withheldReason(withheld: NonNullable<TrendPeriod["withheld"]>): string {
  switch (withheld.condition) {
    case "min_companies":
      return `fewer than ${withheld.threshold} companies`;
    case "max_top2_share":
      return `two companies hold over ${withheld.threshold}%`;
    case "max_source_share":
      return `one data partner over ${withheld.threshold}%`;
    default:
      return withheld.condition;
  }
}

/** Oldest first, as a chart's time axis and a reader go; the API answers newest first. */
export const chronological = (periods: readonly TrendPeriod[]) => [...periods].reverse();

/**
 * A period answered on fewer programs than the console's thin threshold
 * (CONSOLE_THIN_GROUP_PROGRAMS): its medians move with one program, so it is marked,
 * and no change from or to it is headlined (issue 50: "+93.97%" rested on 3 programs).
 */
export const isThin = (period: TrendPeriod, thinPrograms: number) =>
  !period.withheld && period.programCount !== null && period.programCount < thinPrograms;

/**
 * How a thin period is marked in the table and the CSV: one on no programs at all says
 * so, rather than "few" (issue 50's second pass: "(0 prog.)" read as a handful).
 */
export const thinMark = (period: TrendPeriod) =>
  period.programCount === 0 ? "no programs" : "few programs: read with care";

/** "Aug 2026": a period's end on a time axis, short enough for twelve of them side by side. */
export function shortPeriodEnd(periodEnd: string): string {
  const [year, month] = periodEnd.split("-");
  const name = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Number(month) - 1];
  return name ? `${name} ${year}` : periodEnd;
}

/**
 * The trend's CSV table, one row a period, oldest first as the screen shows them: every
 * quartile and change, retention's too; a withheld period keeps its dates and losses and
 * says why, with its figures left empty rather than written as zeros; a thin one says so.
 */
export function trendCsvRows(periods: readonly TrendPeriod[], thinPrograms: number): CsvRows {
  const amounts = ["limit", "premium", "retention", "rpm"] as const;
  const names = { limit: "Limit", premium: "Premium", retention: "Retention", rpm: "RPM" };
  const changes = {
    limit: "limitMedianChangePercent",
    premium: "premiumMedianChangePercent",
    rpm: "rpmMedianChangePercent",
  } as const;
  const header = ["Period start (exclusive)", "Period end", "Programs", "Companies", "Losses"];
  for (const a of amounts) {
    header.push(`${names[a]} count`, `${names[a]} first quartile`, `${names[a]} median`, `${names[a]} third quartile`);
    if (a !== "retention") header.push(`${names[a]} median change %`);
  }
  header.push("Withheld", `Fewer than ${thinPrograms} programs`);
  const cell = (value: number | null | undefined) => (value === null || value === undefined ? "" : value);
  return [
    header,
    ...chronological(periods).map((p) => {
      const row: (string | number)[] = [
        p.periodStart,
        p.periodEnd,
        cell(p.programCount),
        cell(p.companyCount),
        p.lossCount,
      ];
      for (const a of amounts) {
        const q = p[a];
        row.push(cell(q?.count), cell(q?.firstQuartile), cell(q?.median), cell(q?.thirdQuartile));
        if (a !== "retention") row.push(cell(p[changes[a]]));
      }
      row.push(
        p.withheld ? withheldReason(p.withheld) : "",
        isThin(p, thinPrograms) ? (p.programCount === 0 ? "yes: no programs" : "yes: read with care") : "",
      );
      return row;
    }),
  ];
}
