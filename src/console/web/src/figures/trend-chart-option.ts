import type { TrendPeriod } from "../api/types.js";
import type { ChartOption } from "../charts/echarts.js";
import { AXIS_FONT, MEDIAN_COLOR, PEER_COLOR, tooltipBase, tooltipHtml } from "../charts/theme.js";
import { compactMoney, count, money } from "./format.js";
import { TREND_MEASURES, changeOf, changeText, chronological, quartilesOf, withheldReason } from "./trend-rows.js";

/** Each measure's share of the chart's height, and the rim kept clear for the print frame. */
const ROW = 100 / TREND_MEASURES.length;
const RIM = 8;

/** The x axis label of a period: its end date, and "withheld" under it when it is. */
export const periodLabel = (period: TrendPeriod) =>
  period.withheld ? `${period.periodEnd}\n(withheld)` : period.periodEnd;

/**
 * Small multiples, one row per measure (RPM, premium, limit: their scales differ by orders of
 * magnitude), over the same periods, oldest on the left: the quartile band as a stacked area
 * from Q1 to Q3 and the median as a line. A withheld period, or one without the amount, has
 * no value: a gap in the line, never a zero.
 */
export function trendChartOption(periods: readonly TrendPeriod[]): ChartOption {
  const ordered = chronological(periods);
  const labels = ordered.map(periodLabel);
  const last = TREND_MEASURES.length - 1;
  return {
    animationDuration: 300,
    grid: TREND_MEASURES.map((_, i) => ({
      left: 64,
      right: 16,
      top: `${i * ROW + 7}%`,
      height: `${ROW - (i === last ? 22 : 12)}%`,
      // Each row keeps its labels inside its own third (the last row's period labels too).
      outerBounds: { left: RIM, right: RIM, top: `${i * ROW}%`, height: `${ROW}%` },
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
      axisLabel: { show: i === last, interval: 0, fontSize: AXIS_FONT - 1, hideOverlap: true },
      axisTick: { alignWithLabel: true },
    })),
    yAxis: TREND_MEASURES.map((measure, i) => ({
      type: "value" as const,
      gridIndex: i,
      name: `${measure.title} (median, Q1–Q3)`,
      nameLocation: "end" as const,
      nameGap: 6,
      nameTextStyle: { align: "left" as const, fontSize: AXIS_FONT },
      scale: true,
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
          data: values.map((q) => q?.median ?? null),
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
