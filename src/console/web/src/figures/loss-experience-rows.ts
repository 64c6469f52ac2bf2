import type { LossExperience, LossExperienceFigures, LossExperienceTotal } from "../api/types.js";
import type { CsvRows } from "../export/csv.js";
import type { LossExperienceAsk } from "../results/loss-experience-ask.js";
import { count, money } from "./format.js";
import { withheldReason } from "./trend-rows.js";

/** A limit the answer counts paid losses above, and whether it is the client's. */
export interface LimitColumn {
  /** As the API read it (rounded to cents): the counts are for this amount. */
  amount: number;
  client: boolean;
}

/**
 * The answer's limits in its order, the client's first when it was asked with one. The
 * amounts come from the answer, not from the fields: a column is headed by the limit its
 * counts are for, even while a newer one loads.
 */
export function limitColumns(experience: LossExperience, ask: LossExperienceAsk): LimitColumn[] {
  return experience.total.exceeding.map((entry, i) => ({ amount: entry.limit, client: ask.clientLimit && i === 0 }));
}

/** Losses closed without payment: counted as losses (a claim made is a claim), never in the severity. */
export const zeroLosses = (figures: LossExperienceFigures) => figures.lossCount - figures.paidLossCount;

/** A program count; a dash, never 0, when there is none to show (a null is unknown, not none). */
export const programsText = (figures: LossExperienceFigures) =>
  figures.programCount === null ? "–" : count(figures.programCount);

/** Losses per 100 programs as the API rounded them; a dash without programs (a withheld year says so apart). */
export const frequencyText = (figures: LossExperienceFigures) =>
  figures.frequencyPer100 === null
    ? "–"
    : figures.frequencyPer100.toLocaleString("en-US", { maximumFractionDigits: 2 });

/**
 * A year (or the total) on programs, but fewer than the console's thin threshold
 * (CONSOLE_THIN_GROUP_PROGRAMS): its rate per 100 programs moves a lot with one loss.
 */
export const isThin = (figures: LossExperienceFigures, thinPrograms: number) =>
  !figures.withheld && figures.programCount !== null && figures.programCount > 0 && figures.programCount < thinPrograms;

/** "2021–2025", or the one year. */
export const yearsSpan = (total: Pick<LossExperienceTotal, "fromYear" | "toYear">) =>
  total.fromYear === total.toYear ? String(total.fromYear) : `${total.fromYear}–${total.toYear}`;

/** What the CSV's peer-group line says in place of the window, which the loss experience does not use. */
export const yearsText = (total: LossExperienceTotal) =>
  `programs effective and losses dated in ${total.fromYear} to ${total.toYear}, by calendar year`;

/**
 * The CSV's rows below its header lines: the limits asked about, whose each is, then a
 * row a year, oldest first as the screen shows them, and the total. A withheld year's
 * programs and frequency are left empty and the reason given, never written as zeros.
 */
export function lossExperienceCsvRows(experience: LossExperience, ask: LossExperienceAsk): CsvRows {
  const columns = limitColumns(experience, ask);
  const header = [
    "Year",
    "Programs",
    "Losses per 100 programs",
    "Losses ($0 included)",
    "Losses closed at $0",
    "Paid losses",
    "Paid loss first quartile",
    "Paid loss median",
    "Paid loss third quartile",
    "Paid loss average",
    "Largest paid loss",
  ];
  for (const column of columns) {
    const whose = column.client ? " (the client's limit)" : "";
    header.push(
      `Paid losses above ${money(column.amount)}${whose}`,
      `Paid losses above ${money(column.amount)}${whose}, % of paid losses`,
    );
  }
  header.push("Withheld");
  const cell = (value: number | null | undefined) => (value === null || value === undefined ? "" : value);
  const row = (label: string | number, f: LossExperienceFigures) => [
    label,
    cell(f.programCount),
    cell(f.frequencyPer100),
    f.lossCount,
    zeroLosses(f),
    f.paidLossCount,
    cell(f.severity?.firstQuartile),
    cell(f.severity?.median),
    cell(f.severity?.thirdQuartile),
    cell(f.severity?.average),
    cell(f.severity?.max),
    ...f.exceeding.flatMap((e) => [e.count, cell(e.percent)]),
    f.withheld ? withheldReason(f.withheld) : "",
  ];
  const { total } = experience;
  return [
    ...columns.map((c) => [c.client ? "Client limit" : "Other limit", c.amount]),
    ...(columns.length ? [[]] : []),
    header,
    ...experience.years.map((y) => row(y.year, y)),
    row(`Total ${total.fromYear}-${total.toYear}`, total),
  ];
}
