import { useMemo } from "preact/hooks";
import type { ApiProblem } from "../api/problem.js";
import type { Distribution } from "../api/types.js";
import type { ChartOption } from "../charts/echarts.js";
import { AXIS_FONT, CLIENT_COLOR, PEER_COLOR, tooltipBase, tooltipHtml, OUTER_BOUNDS } from "../charts/theme.js";
import { useChart } from "../charts/use-chart.js";
import { bandSeqOf, type DistributionKind } from "./bands.js";
import { FigurePanel, type FigureCounts } from "./figure-panel.js";
import { count, money, sentencePercentile } from "./format.js";
import { csvFilename, csvHeaderRows, type ReportContext } from "../export/report-context.js";

interface DistributionFigureProps {
  kind: DistributionKind;
  distribution: Distribution | null;
  /** The client's amount the distribution was asked with ("" when none): its band is marked. */
  clientAmount: string;
  counts: FigureCounts;
  loading: boolean;
  problem: ApiProblem | null;
  /** What the figure would show, when the disclosure rule withholds it. */
  withheld?: string | undefined;
  context: ReportContext;
}

const TITLES: Record<DistributionKind, string> = {
  limit: "Limit distribution",
  premium: "Premium distribution",
  retention: "Retention distribution",
};

/** Programs per band of limit, premium or retention (spec 2.4), the client's band in its own colour. */
export function DistributionFigure({
  kind,
  distribution,
  clientAmount,
  counts,
  loading,
  problem,
  withheld,
  context,
}: DistributionFigureProps) {
  const hasClient = clientAmount !== "";
  const clientSeq = hasClient ? bandSeqOf(kind, Number(clientAmount)) : null;
  const bands = useMemo(() => distribution?.bands ?? [], [distribution]);
  const withAmount = bands.reduce((sum, band) => sum + band.programCount, 0);

  const option = useMemo<ChartOption | null>(() => {
    if (!distribution) return null;
    return {
      animationDuration: 300,
      grid: { left: 8, right: 8, top: 28, bottom: 8, outerBounds: OUTER_BOUNDS },
      tooltip: {
        ...tooltipBase,
        trigger: "item",
        formatter: (p: unknown) => {
          const { dataIndex } = p as { dataIndex: number };
          const band = bands[dataIndex];
          if (!band) return "";
          return tooltipHtml(band.bandDescription, [
            ["Programs", count(band.programCount)],
            ...(band.bandSeq === clientSeq ? [["Client", money(clientAmount)] as [string, string]] : []),
          ]);
        },
      },
      xAxis: {
        type: "category",
        data: bands.map((band) => band.bandDescription),
        axisLabel: { interval: 0, rotate: 60, fontSize: AXIS_FONT - 1 },
        name: `${kind[0]!.toUpperCase()}${kind.slice(1)} band ($)`,
        nameLocation: "middle",
        nameGap: 56,
      },
      yAxis: { type: "value", minInterval: 1, name: "Programs", axisLabel: { fontSize: AXIS_FONT } },
      series: [
        {
          type: "bar",
          name: "Programs",
          data: bands.map((band) =>
            band.bandSeq === clientSeq
              ? {
                  value: band.programCount,
                  itemStyle: { color: CLIENT_COLOR },
                  label: { show: true, position: "top", formatter: "Client", color: CLIENT_COLOR, fontWeight: "bold" },
                }
              : { value: band.programCount, itemStyle: { color: PEER_COLOR } },
          ),
        },
      ],
    };
  }, [distribution, bands, clientSeq, clientAmount, kind]);

  const ref = useChart(option, "distribution");
  const clientBand = bands.find((band) => band.bandSeq === clientSeq);
  const description = distribution
    ? `Bar chart of ${count(withAmount)} programs by ${kind} band, from ${bands[0]?.bandDescription ?? ""} to ${bands.at(-1)?.bandDescription ?? ""}.` +
      (clientBand ? ` The client's band, ${clientBand.bandDescription}, is highlighted.` : "")
    : `${TITLES[kind]}: not loaded.`;

  const rows = useMemo(
    () => [
      ...csvHeaderRows(TITLES[kind], context),
      // The client's amount and where it stands, as the panel's sentence says (issue 50).
      ...(hasClient && distribution
        ? [
            [`Client ${kind}`, clientAmount],
            ["Client percentile", sentencePercentile(distribution.chartDescription) ?? ""],
            [],
          ]
        : []),
      ["Band", "Band label", "Programs", "Client band"],
      ...bands.map((band) => [
        band.bandSeq,
        band.bandDescription,
        band.programCount,
        band.bandSeq === clientSeq ? "yes" : "",
      ]),
    ],
    [bands, clientSeq, context, kind, hasClient, distribution, clientAmount],
  );

  return (
    <FigurePanel
      id={kind}
      title={TITLES[kind]}
      counts={{
        ...counts,
        programsNote: distribution ? `${count(withAmount)} of them have a ${kind}.` : counts.programsNote,
      }}
      loading={loading}
      hasData={distribution !== null}
      problem={problem}
      withheld={withheld}
      printSize="distribution"
      sentence={distribution?.chartDescription}
      guidance={hasClient ? undefined : `Enter the client's ${kind} to see where it stands among its peers.`}
      clientNote={hasClient ? context.amountsNote || undefined : undefined}
      description={description}
      csv={distribution ? { filename: csvFilename(`${kind}-distribution`, context), rows } : null}
      printNumbers={
        <table class="band-counts">
          <caption>Programs per {kind} band</caption>
          <tbody>
            {bands.map((band) => (
              <tr key={band.bandSeq} class={band.bandSeq === clientSeq ? "client-row" : undefined}>
                <th scope="row">{band.bandDescription}</th>
                <td>{count(band.programCount)}</td>
                <td>{band.bandSeq === clientSeq ? "client" : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
      chart={<div class="chart-canvas" ref={ref} />}
      table={
        <table>
          <caption>{TITLES[kind]}: programs per band</caption>
          <thead>
            <tr>
              <th scope="col">Band</th>
              <th scope="col">Programs</th>
            </tr>
          </thead>
          <tbody>
            {bands.map((band) => (
              <tr key={band.bandSeq} class={band.bandSeq === clientSeq ? "client-row" : undefined}>
                <th scope="row">
                  {band.bandDescription}
                  {band.bandSeq === clientSeq ? <span class="tag">client</span> : null}
                </th>
                <td>{count(band.programCount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}
