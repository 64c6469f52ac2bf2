import type { Page } from "playwright-core";

/** A text drawn in a chart (an axis label, an axis name, the legend, a line's label), in the chart's pixels. */
export interface DrawnText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DrawnChart {
  testId: string;
  width: number;
  height: number;
  texts: DrawnText[];
}

/**
 * Every text each chart has drawn, with its box, read from ECharts' own display list (the
 * chart instance sits on its element: src/console/web/src/charts/use-chart.ts). What the
 * canvas shows is exactly these, so a box outside the chart is a cropped label.
 */
export function drawnCharts(page: Page): Promise<DrawnChart[]> {
  return page.locator("[data-testid$='-chart'] .chart-canvas").evaluateAll((elements) => {
    interface Rect {
      x: number;
      y: number;
      width: number;
      height: number;
      clone(): Rect;
      applyTransform(m: number[]): void;
    }
    interface Displayable {
      type: string;
      style: { text?: string };
      transform?: number[];
      ignore?: boolean;
      invisible?: boolean;
      getBoundingRect(): Rect;
    }
    interface Chart {
      getWidth(): number;
      getHeight(): number;
      getZr(): { storage: { getDisplayList(update: boolean): Displayable[] } };
    }
    interface ChartBox {
      dataset: { testid?: string };
      classList: { contains(name: string): boolean };
    }
    interface ChartElement {
      chart?: Chart;
      closest(selector: string): ChartBox | null;
    }
    return (elements as unknown as ChartElement[]).flatMap((element) => {
      const chart = element.chart;
      const box = element.closest("[data-testid$='-chart']");
      if (!chart || !box || box.classList.contains("chart-hidden")) return [];
      const texts = chart
        .getZr()
        .storage.getDisplayList(true)
        .filter((el: Displayable) => el.type === "tspan" && el.style.text && !el.ignore && !el.invisible)
        .map((el: Displayable) => {
          const rect = el.getBoundingRect().clone();
          if (el.transform) rect.applyTransform(el.transform);
          return { text: el.style.text!, x: rect.x, y: rect.y, width: rect.width, height: rect.height };
        });
      return [{ testId: box.dataset.testid!, width: chart.getWidth(), height: chart.getHeight(), texts }];
    });
  });
}

/** The texts of a chart that stick out of it (a pixel of slack for anti-aliasing). */
export const outside = (chart: DrawnChart) =>
  chart.texts.filter(
    (t) => t.x < -1 || t.y < -1 || t.x + t.width > chart.width + 1 || t.y + t.height > chart.height + 1,
  );

/** Pairs of texts whose boxes overlap by more than a pixel each way. */
export function overlapping(texts: readonly DrawnText[]): [string, string][] {
  const pairs: [string, string][] = [];
  texts.forEach((a, i) =>
    texts.slice(i + 1).forEach((b) => {
      const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) pairs.push([a.text, b.text]);
    }),
  );
  return pairs;
}
