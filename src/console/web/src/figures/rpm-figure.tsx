import { useMemo } from "preact/hooks";
import type { ApiProblem } from "../api/problem.js";
import type { Rpm } from "../api/types.js";
import type { ChartOption } from "../charts/echarts.js";
import { AXIS_FONT, CLIENT_COLOR, PEER_COLOR, tooltipBase, tooltipHtml, OUTER_BOUNDS } from "../charts/theme.js";
import { maxIncluding, type Extent } from "../charts/axis-range.js";
import { useChart } from "../charts/use-chart.js";
import { FigurePanel, type FigureCounts } from "./figure-panel.js";
import { compactMoney, money, sentencePercentile } from "./format.js";
import { csvFilename, csvHeaderRows, type ReportContext } from "../export/report-context.js";

interface RpmFigureProps {
  rpm: Rpm | null;
  /** False when the answer was asked without the client's premium or limit: then there is no client RPM to mark. */
  hasClient: boolean;
  counts: FigureCounts;
  loading: boolean;
  problem: ApiProblem | null;
  withheld?: string | undefined;
  context: ReportContext;
}

/** The row of the CSV and the tables that gives the rank as the sentence's ordinal ("81st" for 80.77). */
const ROUNDED_PERCENTILE = "Client percentile, as the sentence rounds it";

/** A row's value in the tables: the ranks as they are, the amounts as money. */
function shownValue(label: string, value: string | number): string {
  return label === "Client percentile" || label === ROUNDED_PERCENTILE ? String(value) : money(value as number);
}

/**
 * Rate per million as a box: Q1 to the upper quartile, the median, a whisker to the
 * maximum (the API gives no minimum, so the lower whisker stops at Q1), and the
 * client's RPM as a line with its percentile (spec 2.6, SEMANTICS.md 7).
 */
export function RpmFigure({ rpm, hasClient, counts, loading, problem, withheld, context }: RpmFigureProps) {
  const option = useMemo<ChartOption | null>(() => {
    if (!rpm) return null;
    const box = [rpm.firstQuartile, rpm.firstQuartile, rpm.median, rpm.fourthQuartile, rpm.maxRpm];
    return {
      animationDuration: 300,
      grid: { left: 8, right: 24, top: 36, bottom: 8, outerBounds: OUTER_BOUNDS },
      tooltip: {
        ...tooltipBase,
        trigger: "item",
        formatter: () =>
          tooltipHtml("Peers' RPM", [
            ["Q1", money(rpm.firstQuartile)],
            ["Median", money(rpm.median)],
            ["Q3", money(rpm.fourthQuartile)],
            ["Max", money(rpm.maxRpm)],
          ]),
      },
      xAxis: {
        type: "value",
        name: "RPM ($ of premium per $1M of limit)",
        nameLocation: "middle",
        nameGap: 28,
        // Far enough for the client's line when its RPM is above the peers' maximum.
        max: (extent: Extent) => maxIncluding(extent, hasClient ? [rpm.clientBar] : []),
        axisLabel: { formatter: compactMoney, fontSize: AXIS_FONT },
      },
      yAxis: { type: "category", data: ["Peers"], axisLabel: { fontSize: AXIS_FONT } },
      series: [
        {
          type: "boxplot",
          name: "Peers' RPM",
          data: [box],
          itemStyle: { color: "#dce6f2", borderColor: PEER_COLOR, borderWidth: 2 },
          boxWidth: [24, 56],
          markLine: hasClient
            ? {
                symbol: "none",
                silent: true,
                lineStyle: { color: CLIENT_COLOR, width: 2, type: "solid" },
                label: { formatter: `Client ${money(rpm.clientBar)}`, color: CLIENT_COLOR, fontWeight: "bold" },
                data: [{ xAxis: rpm.clientBar }],
              }
            : undefined,
        },
      ],
    };
  }, [rpm, hasClient]);

  const ref = useChart(option, "rpm");
  const description = rpm
    ? `Box plot of the peers' rate per million: first quartile ${money(rpm.firstQuartile)}, median ${money(rpm.median)}, third quartile ${money(rpm.fourthQuartile)}, maximum ${money(rpm.maxRpm)}.` +
      (hasClient ? ` The client's RPM, ${money(rpm.clientBar)}, is marked by a line.` : "")
    : "Rate per million: not loaded.";

  const rows = useMemo(
    () =>
      rpm
        ? [
            ["Statistic", "RPM"],
            ["First quartile", rpm.firstQuartile],
            ["Median", rpm.median],
            ["Third quartile", rpm.fourthQuartile],
            ["Maximum", rpm.maxRpm],
            ...(hasClient
              ? [
                  ["Client", rpm.clientBar],
                  ["Client percentile", rpm.nthPercent],
                  // As the facts say it: the exact rank, and the ordinal the sentence rounds it to.
                  [ROUNDED_PERCENTILE, sentencePercentile(rpm.chartDescription) ?? ""],
                ]
              : []),
          ]
        : [],
    [rpm, hasClient],
  );

  return (
    <FigurePanel
      id="rpm"
      title="Rate per million (RPM)"
      counts={counts}
      loading={loading}
      hasData={rpm !== null}
      problem={problem}
      sentence={rpm ? readableRpmSentence(rpm.chartDescription) : undefined}
      guidance={
        hasClient
          ? undefined
          : "Enter the client's limit and premium to see where its rate per million stands among its peers."
      }
      clientNote={hasClient ? context.amountsNote || undefined : undefined}
      description={description}
      csv={
        rpm
          ? {
              filename: csvFilename("rpm", context),
              rows: [...csvHeaderRows("Rate per million (RPM)", context), ...rows],
            }
          : null
      }
      withheld={withheld}
      printSize="rpm"
      printNumbers={
        <table class="band-counts">
          <caption>Peers' RPM</caption>
          <tbody>
            {rows.slice(1).map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{shownValue(String(label), value!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
      chart={<div class="chart-canvas chart-canvas-short" ref={ref} />}
      facts={
        rpm && hasClient ? (
          <dl class="facts">
            <div>
              <dt>Client RPM</dt>
              <dd>{money(rpm.clientBar)}</dd>
            </div>
            <div>
              {/* The sentence's ordinal is this rank rounded: said so, or "81st" beside "80.77" reads as two figures. */}
              <dt>Percentile rank</dt>
              <dd>
                <span data-testid="rpm-percentile">{rpm.nthPercent}</span>
                {sentencePercentile(rpm.chartDescription) ? (
                  <span class="fact-note" data-testid="rpm-percentile-rounded">
                    {" "}
                    (the sentence's {sentencePercentile(rpm.chartDescription)} percentile, rounded)
                  </span>
                ) : null}
              </dd>
            </div>
          </dl>
        ) : null
      }
      table={
        <table>
          <caption>Rate per million: peers and client</caption>
          <thead>
            <tr>
              <th scope="col">Statistic</th>
              <th scope="col">RPM</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(1).map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{shownValue(String(label), value!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

/**
 * The API's sentence (SEMANTICS.md 7 fixes its words, "Rate Per Million(RPM)"), as the
 * screen writes the name everywhere else; the CSV and the API keep the sentence as it is.
 */
function readableRpmSentence(sentence: string): string {
  return sentence.replace("Rate Per Million(RPM)", "rate per million (RPM)");
}
