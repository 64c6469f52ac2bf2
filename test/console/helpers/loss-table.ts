import type { Page } from "playwright-core";
import { Decimal, roundHalfAwayFromZero } from "../../../src/benchmark/decimal.js";
import { money } from "../../../src/benchmark/text.js";
import { rowCells } from "./row-cells.js";

/** One row of the loss experience's table as the page shows it: each cell's text by its test id. */
export interface ShownLossRow {
  /** The year, or "total". */
  year: string;
  cells: Record<string, string>;
}

/** The rows of the loss experience's table, oldest first as the page lists them, then the total. */
export async function shownLossRows(page: Page): Promise<ShownLossRow[]> {
  const rows = page.locator(
    '[data-testid="loss-experience-numbers"] [data-testid="losses-row"], [data-testid="losses-total"]',
  );
  return (await rowCells(rows, "data-year")).map(({ name, cells }) => ({ year: name ?? "total", cells }));
}

/** The headings of the limit columns, in their order. */
export async function shownLimitHeadings(page: Page): Promise<string[]> {
  return page.locator('[data-testid="loss-experience-numbers"] th[data-testid^="losses-above-"]').allTextContents();
}

/** A year's, or the total's, figures as lossdetails/getlossexperience answers them (SEMANTICS.md 15). */
export interface ApiLossFigures {
  programCount: number | null;
  lossCount: number;
  paidLossCount: number;
  frequencyPer100: number | null;
  severity: { firstQuartile: number; median: number; thirdQuartile: number; average: number; max: number } | null;
  exceeding: { limit: number; count: number; percent: number | null }[];
  withheld: { condition: string; threshold: number } | null;
}

export interface ApiLossExperience {
  years: (ApiLossFigures & { year: number })[];
  total: ApiLossFigures & { fromYear: number; toYear: number };
}

/** SEMANTICS.md 5's money() of an amount rounded to the dollar, as the server writes it: the table's loss amounts. */
export const shownDollars = (value: number) => money(roundHalfAwayFromZero(new Decimal(value), 0));

const count = (value: number) => value.toLocaleString("en-US");

/** "N (P%)": paid losses above a limit and their share; the count alone without paid losses. */
export const exceededCell = (entry: { count: number; percent: number | null }) =>
  entry.percent === null ? count(entry.count) : `${count(entry.count)} (${entry.percent}%)`;

/** Why a year is withheld, as the console words SEMANTICS.md 12's conditions. */
const REASONS: Record<string, (threshold: number) => string> = {
  min_companies: (n) => `fewer than ${n} companies`,
  max_top2_share: (n) => `two companies hold over ${n}%`,
  max_source_share: (n) => `one data partner over ${n}%`,
};

export const withheldReason = (withheld: { condition: string; threshold: number }) =>
  REASONS[withheld.condition]!(withheld.threshold);

/**
 * Why the total's programs are withheld, as the console must word it (SEMANTICS.md 15): its
 * condition when the years together break the rule (no year withheld, or another condition
 * than the oldest withheld year's); else that it would reveal the withheld years' counts,
 * alone when it repeats a year's min_companies while another year passes (that year alone
 * has the companies), with the condition as a possibility otherwise.
 */
export function totalWithheldWords(api: ApiLossExperience): string | null {
  const own = api.total.withheld;
  if (!own) return null;
  const withheld = api.years.filter((y) => y.withheld);
  const oldest = withheld[0]?.withheld;
  if (!oldest || oldest.condition !== own.condition || oldest.threshold !== own.threshold) return withheldReason(own);
  const reveal = "the total would reveal the withheld years' counts";
  return own.condition === "min_companies" && withheld.length < api.years.length
    ? reveal
    : `${reveal}, and may itself break the rule: ${withheldReason(own)}`;
}

/**
 * What a row must show for the API's figures, cell by cell: a withheld year's programs and
 * rate replaced by the reason, its losses kept; $0 losses apart from the paid ones; a year
 * on fewer programs than `thin` marked beside its programs; the share above each limit
 * in the `total` row only; a program count the API leaves null a dash, never 0.
 */
export function expectedLossCells(
  f: ApiLossFigures,
  thin: number,
  total = false,
  /** The total's withheld words (totalWithheldWords), in place of its condition's. */
  withheldWords?: string | null,
): Record<string, string> {
  const cells: Record<string, string> = {};
  if (f.withheld) cells["losses-withheld"] = `Withheld: ${withheldWords ?? withheldReason(f.withheld)}`;
  else {
    const few = f.programCount! > 0 && f.programCount! < thin;
    cells["losses-programs"] =
      `${f.programCount === null ? "–" : count(f.programCount)}${few ? "* (few programs)" : ""}`;
    if (few) cells["losses-thin"] = "* (few programs)";
    cells["losses-frequency"] =
      f.frequencyPer100 === null ? "–" : f.frequencyPer100.toLocaleString("en-US", { maximumFractionDigits: 2 });
  }
  const s = f.severity;
  const dash = (value: number | undefined) => (value === undefined ? "–" : shownDollars(value));
  Object.assign(cells, {
    "losses-count": count(f.lossCount),
    "losses-zero": count(f.lossCount - f.paidLossCount),
    "losses-paid": count(f.paidLossCount),
    "losses-q1": dash(s?.firstQuartile),
    "losses-median": dash(s?.median),
    "losses-q3": dash(s?.thirdQuartile),
    "losses-average": dash(s?.average),
    "losses-max": dash(s?.max),
  });
  // A year's count alone; the total's with its share of the paid losses.
  f.exceeding.forEach((entry, i) => (cells[`losses-above-${i}`] = total ? exceededCell(entry) : count(entry.count)));
  return cells;
}
