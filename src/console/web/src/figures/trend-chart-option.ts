import type { TrendPeriod } from "../api/types.js";
import type { ChartOption } from "../charts/echarts.js";
import { AXIS_FONT, MEDIAN_COLOR, PEER_COLOR, tooltipBase, tooltipHtml } from "../charts/theme.js";
import { compactMoney, count, money } from "./format.js";
import {
  TREND_MEASURES,
  changeOf,
  changeText,
  chronological,
  isThin,
  quartilesOf,
  shortPeriodEnd,
  withheldReason,
} from "./trend-rows.js";

/**
 * The rows' vertical layout, in % of the chart's height: room above the first for its
 * axis name, a gap between rows for the next one's, and room under the last for the one
 * time axis (two lines where a period is thin or withheld). Every row is as tall as the
 * others, so a change reads the same in each (issue 50: the limit row had half the height).
 */
const TOP = 10;
const GAP = 12;
const TIME_AXIS = 15;
const ROW_HEIGHT = (100 - TOP - TIME_AXIS - GAP * (TREND_MEASURES.length - 1)) / TREND_MEASURES.length;
/**
 * The plots' edges, the same for the three rows, so one period stands at one x in all of
 * them (issue 50: the limit row was narrower, its periods out of line with those above).
 * Room enough for "$12.5M" on the left and half a period label on the right, so no row
 * is shrunk to fit its labels.
 */
const LEFT = 64;
const RIGHT = 36;

/** The x axis label of a period: its month, and under it "withheld", or how few programs it rests on. */
export const periodLabel = (period: TrendPeriod, thinPrograms: number) => {
  const month = shortPeriodEnd(period.periodEnd);
  if (period.withheld) return `${month}\n(withheld)`;
  if (!isThin(period, thinPrograms)) return month;
  return period.programCount === 0 ? `${month}\n(no programs)` : `${month}\n(${count(period.programCount!)} prog.)`;
};

/**
 * A value axis' ends, from the values it draws: nice numbers a step beyond the outermost,
 * so no median sits on the axis line and reads as zero (issue 50: a $5M median sat on an
 * axis starting at $5M); never below 0, where no amount is.
 */
export function valueAxisEnds({ min, max }: { min: number; max: number }): { min: number; max: number } {
  const pad = max > min ? (max - min) * 0.15 : Math.abs(max) * 0.2 || 1;
  return { min: Math.max(0, niceFloor(min - pad)), max: niceCeil(max + pad) };
}

/** The number at or below `value` with one significant digit: 4.25M is 4M. */
const niceFloor = (value: number) => {
  if (value <= 0) return 0;
  const unit = 10 ** Math.floor(Math.log10(value));
  return Math.floor(value / unit) * unit;
};

/** The number at or above `value` with one significant digit (or two, below 2): 5.75M is 6M, 1.15M is 1.2M. */
const niceCeil = (value: number) => {
  if (value <= 0) return 0;
  const unit = 10 ** Math.floor(Math.log10(value)) / (value < 2 * 10 ** Math.floor(Math.log10(value)) ? 10 : 1);
  return Math.ceil(value / unit) * unit;
};

/**
 * Small multiples, one row per measure (RPM, premium, limit: their scales differ by orders of
 * magnitude), over the same periods, oldest on the left: the quartile band as a stacked area
 * from Q1 to Q3 and the median as a line. A withheld period, or one without the amount, has
 * no value: a gap in the line, never a zero. A thin period's median is a hollow point, and
 * its label says how few programs it rests on.
 */
export function trendChartOption(periods: readonly TrendPeriod[], thinPrograms: number): ChartOption {
  const ordered = chronological(periods);
  const labels = ordered.map((period) => periodLabel(period, thinPrograms));
  const last = TREND_MEASURES.length - 1;
  return {
    animationDuration: 300,
    grid: TREND_MEASURES.map((_, i) => ({
      left: LEFT,
      right: RIGHT,
      top: `${TOP + i * (ROW_HEIGHT + GAP)}%`,
      height: `${ROW_HEIGHT}%`,
      outerBoundsMode: "none" as const,
    })),
    tooltip: {
      ...tooltipBase,
      trigger: "item",
      formatter: (p: unknown) => {
        const { seriesIndex, dataIndex } = p as { seriesIndex: number; dataIndex: number };
        const measure = TREND_MEASURES[Math.floor(seriesIndex / 3)];
        const period = ordered[dataIndex];
        if (!measure || !period) return "";
        const q = quartilesOf(period, measure);
        return tooltipHtml(`${measure.title}, period ending ${period.periodEnd}`, [
          ["Median", q?.median == null ? "–" : money(q.median)],
          [
            "Q1 – Q3",
            q?.firstQuartile == null || q.thirdQuartile == null
              ? "–"
              : `${money(q.firstQuartile)} – ${money(q.thirdQuartile)}`,
          ],
          ["Change", changeText(changeOf(period, measure))],
          ["Programs", period.programCount === null ? "withheld" : count(period.programCount)],
        ]);
      },
    },
    xAxis: TREND_MEASURES.map((_, i) => ({
      type: "category" as const,
      gridIndex: i,
      data: labels,
      boundaryGap: false,
      // One time axis, under the last row; its labels skipped where they would touch.
      axisLabel: { show: i === last, interval: "auto" as const, fontSize: AXIS_FONT - 1, hideOverlap: true },
      axisTick: { alignWithLabel: true },
    })),
    yAxis: TREND_MEASURES.map((measure, i) => ({
      type: "value" as const,
      gridIndex: i,
      name: `${measure.title} (median, Q1–Q3)`,
      nameLocation: "end" as const,
      nameGap: 6,
      nameTextStyle: { align: "left" as const, fontSize: AXIS_FONT },
      min: (extent: { min: number; max: number }) => valueAxisEnds(extent).min,
      max: (extent: { min: number; max: number }) => valueAxisEnds(extent).max,
      splitNumber: 2,
      axisLabel: { formatter: compactMoney, fontSize: AXIS_FONT - 1 },
    })),
    series: TREND_MEASURES.flatMap((measure, i) => {
      const values = ordered.map((period) => quartilesOf(period, measure));
      const band = `band-${measure.key}`;
      return [
        // The band's floor, stacked under its height: drawn as nothing itself.
        {
          type: "line" as const,
          name: `${measure.title} Q1`,
          xAxisIndex: i,
          yAxisIndex: i,
          stack: band,
          symbol: "none",
          silent: true,
          lineStyle: { opacity: 0 },
          data: values.map((q) => q?.firstQuartile ?? null),
        },
        {
          type: "line" as const,
          name: `${measure.title} Q1–Q3`,
          xAxisIndex: i,
          yAxisIndex: i,
          stack: band,
          symbol: "none",
          silent: true,
          lineStyle: { opacity: 0 },
          areaStyle: { color: PEER_COLOR, opacity: 0.35 },
          data: values.map((q) =>
            q?.firstQuartile == null || q.thirdQuartile == null ? null : q.thirdQuartile - q.firstQuartile,
          ),
        },
        {
          type: "line" as const,
          name: `${measure.title} median`,
          xAxisIndex: i,
          yAxisIndex: i,
          symbolSize: 6,
          lineStyle: { color: MEDIAN_COLOR, width: 2 },
          itemStyle: { color: MEDIAN_COLOR },
          data: values.map((q, k) =>
            isThin(ordered[k]!, thinPrograms)
              ? { value: q?.median ?? null, symbol: "emptyCircle", symbolSize: 9 }
              : (q?.median ?? null),
          ),
        },
      ];
    }),
  };
}

/** What a screen reader hears for the chart: the medians, oldest to newest, and the withheld periods. */
export function trendDescription(periods: readonly TrendPeriod[], periodMonths: number): string {
  const ordered = chronological(periods);
  const parts = TREND_MEASURES.map(
    (measure) =>
      `${measure.title} medians: ${ordered.map((p) => (p.withheld ? "withheld" : quartilesOf(p, measure)?.median == null ? "none" : money(quartilesOf(p, measure)!.median!))).join(", ")}.`,
  );
  const withheld = ordered.filter((p) => p.withheld);
  return (
    `Market trend over ${ordered.length} periods of ${periodMonths} months, oldest first, each with its median and quartile band. ${parts.join(" ")}` +
    (withheld.length
      ? ` Withheld: ${withheld.map((p) => `${p.periodEnd} (${withheldReason(p.withheld!)})`).join(", ")}.`
      : "")
  );
}
