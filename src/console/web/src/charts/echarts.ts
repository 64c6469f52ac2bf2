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
import { init, use } from "echarts/core";
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
