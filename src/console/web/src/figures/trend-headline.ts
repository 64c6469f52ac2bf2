import type { TrendPeriod } from "../api/types.js";
import { count, moneyOrDash } from "./format.js";
import { changeText, isThin, withheldReason } from "./trend-rows.js";

/**
 * The trend's one-line reading, from the API's periods (newest first). It reads the
 * newest period with figures, and says so when a newer one is withheld. A change is
 * given only between two periods each on at least `thinPrograms` programs (issue 50: a
 * "+93.97%" headline rested on 3 programs): otherwise the medians alone, and why.
 */
export function trendHeadline(periods: readonly TrendPeriod[], thinPrograms: number): string | undefined {
  const at = periods.findIndex((p) => !p.withheld);
  if (at < 0) return undefined;
  const newest = periods[at]!;
  const skipped = periods
    .slice(0, at)
    .map((p) => `The period ending ${p.periodEnd} is withheld (${withheldReason(p.withheld!)}). `)
    .join("");
  const lead =
    at === 0 ? `Newest period, ending ${newest.periodEnd}` : `Newest period with figures, ending ${newest.periodEnd}`;
  if (isThin(newest, thinPrograms))
    return `${skipped}${lead}, rests on ${programs(newest)}, fewer than ${thinPrograms}: too few to read its medians or a change from; see the table.`;
  const medians = (withChange: boolean) =>
    [
      `median limit ${moneyOrDash(newest.limit?.median)}${withChange ? ` (${changeText(newest.limitMedianChangePercent)})` : ""}`,
      `median premium ${moneyOrDash(newest.premium?.median)}${withChange ? ` (${changeText(newest.premiumMedianChangePercent)})` : ""}`,
      `median RPM ${moneyOrDash(newest.rpm?.median)}${withChange ? ` (${changeText(newest.rpmMedianChangePercent)})` : ""}`,
    ].join(", ");
  const before = periods[at + 1];
  if (!before) return `${skipped}${lead}: ${medians(false)}.`;
  if (before.withheld)
    return `${skipped}${lead}: ${medians(false)}; no change is given, as the period before is withheld.`;
  if (isThin(before, thinPrograms))
    return `${skipped}${lead}: ${medians(false)}; no change is given, as the period before rests on ${programs(before)}, fewer than ${thinPrograms}.`;
  return `${skipped}${lead}: ${medians(true)} against the period before.`;
}

const programs = (period: TrendPeriod) =>
  `${count(period.programCount ?? 0)} program${period.programCount === 1 ? "" : "s"}`;

/** The span the periods cover, in place of the window the trend does not use: "5 periods of 12 months, after 2021-11-01 up to 2026-11-01". */
export function periodsText(periods: readonly TrendPeriod[], months: number): string {
  if (periods.length === 0) return `periods of ${months} months`;
  const oldest = periods[periods.length - 1]!;
  return `${periods.length} periods of ${months} months, after ${oldest.periodStart} up to ${periods[0]!.periodEnd}`;
}
