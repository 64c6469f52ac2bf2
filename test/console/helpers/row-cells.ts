import type { Locator } from "playwright-core";

/** A table row as the page shows it: an attribute naming the row, and each cell's text by its test id. */
export interface RowCells {
  name: string | null;
  cells: Record<string, string>;
}

/** Every row `rows` matches, in page order, named by its `nameAttribute`. */
export function rowCells(rows: Locator, nameAttribute: string): Promise<RowCells[]> {
  return rows.evaluateAll((elements, attribute) => {
    // The little of the DOM this reads, declared here: the tests are compiled without the DOM's types.
    interface Element {
      getAttribute(name: string): string | null;
      readonly textContent: string | null;
      querySelectorAll(selector: string): ArrayLike<Element>;
    }
    return (elements as unknown as Element[]).map((row) => {
      const cells: Record<string, string> = {};
      for (const cell of Array.from(row.querySelectorAll("[data-testid]")))
        cells[cell.getAttribute("data-testid")!] = (cell.textContent ?? "").trim();
      return { name: row.getAttribute(attribute), cells };
    });
  }, nameAttribute);
}
