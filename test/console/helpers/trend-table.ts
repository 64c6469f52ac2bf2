import type { Page } from "playwright-core";
import { rowCells } from "./row-cells.js";

/** One row of the trend's table view as the page shows it: each cell's text by its test id. */
export interface ShownPeriod {
  end: string;
  cells: Record<string, string>;
}

/**
 * The trend's table view (closed or open: its text is read, not seen), oldest first as the
 * page lists it. `within` picks the screen's table or the print numbers.
 */
export async function shownPeriods(
  page: Page,
  within: "trend-table" | "trend-print-numbers" = "trend-table",
): Promise<ShownPeriod[]> {
  const rows = page.locator(`[data-testid="${within}"] [data-testid="trend-row"]`);
  return (await rowCells(rows, "data-period-end")).map(({ name, cells }) => ({ end: name!, cells }));
}

/** A trend period as the API answers it (SEMANTICS.md 13). */
export interface ApiPeriod {
  periodStart: string;
  periodEnd: string;
  programCount: number | null;
  lossCount: number;
  withheld: { condition: string; threshold: number } | null;
  limit: Quartiles | null;
  premium: Quartiles | null;
  rpm: Quartiles | null;
  limitMedianChangePercent: number | null;
  premiumMedianChangePercent: number | null;
  rpmMedianChangePercent: number | null;
}

interface Quartiles {
  count: number;
  firstQuartile: number | null;
  median: number | null;
  thirdQuartile: number | null;
}
