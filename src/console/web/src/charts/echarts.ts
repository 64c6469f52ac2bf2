/**
 * The parts of ECharts the console draws with, and nothing else: ECharts' tree-shakable
 * entry points keep the bundle to the bar, box and scatter series on a canvas.
 * Canvas rather than SVG: it writes no `style` attributes, which the CSP forbids.
 */
import { BarChart, BoxplotChart, ScatterChart } from "echarts/charts";
import type { BarSeriesOption, BoxplotSeriesOption, ScatterSeriesOption } from "echarts/charts";
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from "echarts/components";
import type { GridComponentOption, LegendComponentOption, MarkLineComponentOption, TooltipComponentOption } from "echarts/components";
import { init, use } from "echarts/core";
import type { ComposeOption } from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

use([BarChart, BoxplotChart, ScatterChart, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  BarSeriesOption | BoxplotSeriesOption | ScatterSeriesOption | GridComponentOption | LegendComponentOption | MarkLineComponentOption | TooltipComponentOption
>;

export { init };
