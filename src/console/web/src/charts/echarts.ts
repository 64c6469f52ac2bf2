/**
 * The parts of ECharts the console draws with, and nothing else: ECharts' tree-shakable
 * entry points keep the bundle to the bar, box, scatter and line series on a canvas.
 * Canvas rather than SVG: it writes no `style` attributes, which the CSP forbids.
 */
import { BarChart, BoxplotChart, LineChart, ScatterChart } from "echarts/charts";
import type { BarSeriesOption, BoxplotSeriesOption, LineSeriesOption, ScatterSeriesOption } from "echarts/charts";
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from "echarts/components";
import type {
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  TooltipComponentOption,
} from "echarts/components";
import { init, setPlatformAPI, use } from "echarts/core";
import type { ComposeOption } from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

use([
  BarChart,
  BoxplotChart,
  LineChart,
  ScatterChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  CanvasRenderer,
]);

/** The little of the DOM this needs: the server's typecheck reads this file too (the figures import its types). */
interface CanvasDocument {
  document: {
    createElement(tag: "canvas"): {
      getContext(kind: "2d"): { font: string; measureText(text: string): { width: number } } | null;
    };
  };
}

/**
 * zrender takes a line of text to be as tall as "国" is wide: one em where a CJK font is
 * installed. Where none is (Debian's Chromium, a minimal Linux desktop) the missing glyph
 * measures about a third of an em, so every label was laid out 4 px tall: a two-line label's
 * lines were drawn over each other and `hideOverlap` kept labels that touched (issue 50, the
 * trend's thin periods). Here that glyph is one em, whatever the fonts.
 */
const measuring = (globalThis as unknown as CanvasDocument).document.createElement("canvas").getContext("2d");
let measuringFont = "";
setPlatformAPI({
  measureText(text, font = "12px sans-serif") {
    if (!measuring) return { width: 0 };
    // Setting a canvas' font is slow: zrender measures one font many times over.
    if (font !== measuringFont) measuring.font = measuringFont = font;
    const { width } = measuring.measureText(text);
    if (text !== "国") return { width };
    const em = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 12);
    return { width: Math.max(width, em) };
  },
});

export type ChartOption = ComposeOption<
  | BarSeriesOption
  | BoxplotSeriesOption
  | LineSeriesOption
  | ScatterSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | MarkLineComponentOption
  | TooltipComponentOption
>;

export { init };
