import { useMemo, useState } from "preact/hooks";
import type { ApiProblem } from "../api/problem.js";
import type { LimitAdequacy } from "../api/types.js";
import type { ChartOption } from "../charts/echarts.js";
import { AXIS_FONT, CLIENT_COLOR, MEDIAN_COLOR, PEER_COLOR, UNCOVERED_COLOR, tooltipBase, tooltipHtml } from "../charts/theme.js";
import { logMinIncluding, maxIncluding, type Extent } from "../charts/axis-range.js";
import { useChart } from "../charts/use-chart.js";
import { FigurePanel, type FigureCounts } from "./figure-panel.js";
import { compactMoney, count, money } from "./format.js";

interface LimitAdequacyFigureProps {
  adequacy: LimitAdequacy | null;
  /** False when the answer was asked without a client limit: nothing is covered or not. */
  hasClient: boolean;
  counts: FigureCounts;
  loading: boolean;
  problem: ApiProblem | null;
}

/** Rows drawn in the case table before "Show all": a broad group lists tens of thousands. */
const TABLE_ROWS = 200;

/**
 * The peers' loss cases, smallest to largest, against the client's limit and the median
 * peer limit (spec 2.10, SEMANTICS.md 9): a case at or below the client's limit is covered.
 * Amounts span cents to billions, so the amount axis is logarithmic (a zero is drawn at $1).
 */
export function LimitAdequacyFigure({ adequacy, hasClient, counts, loading, problem }: LimitAdequacyFigureProps) {
  const [showAll, setShowAll] = useState(false);
  const cases = useMemo(() => adequacy?.listOfCases ?? [], [adequacy]);

  const option = useMemo<ChartOption | null>(() => {
    if (!adequacy) return null;
    const covered: [number, number, number][] = [];
    const uncovered: [number, number, number][] = [];
    cases.forEach((c, i) => (!hasClient || c.lossAmount <= adequacy.clientLimit ? covered : uncovered).push([i + 1, Math.max(1, c.lossAmount), c.lossEventID]));
    const limits = [...(hasClient ? [adequacy.clientLimit] : []), adequacy.medianLimit];
    // Labels at opposite ends, so two limits close together do not print over each other.
    const line = (value: number, label: string, color: string, position: "insideEndTop" | "insideStartBottom") =>
      value > 0 ? [{ yAxis: value, lineStyle: { color, width: 2, type: "dashed" as const }, label: { formatter: label, color, position } }] : [];
    const scatter = (name: string, data: [number, number, number][], color: string) => ({
      type: "scatter" as const,
      name,
      data,
      symbolSize: cases.length > 2000 ? 3 : 6,
      large: cases.length > 2000,
      itemStyle: { color },
    });
    return {
      animationDuration: 300,
      grid: { left: 8, right: 16, top: 40, bottom: 8 },
      legend: { top: 0, textStyle: { fontSize: AXIS_FONT } },
      tooltip: {
        ...tooltipBase,
        trigger: "item",
        formatter: (p: unknown) => {
          const { value } = p as { value: [number, number, number] };
          const found = cases[value[0] - 1];
          return found ? tooltipHtml(`Loss event ${found.lossEventID}`, [["Amount", money(found.lossAmount)]]) : "";
        },
      },
      xAxis: { type: "value", name: "Cases, smallest loss first", nameLocation: "middle", nameGap: 26, min: 0, max: cases.length + 1, minInterval: 1, axisLabel: { fontSize: AXIS_FONT } },
      // The axis reaches both limits even when every loss is far above or below them, so the lines always show.
      yAxis: {
        type: "log",
        name: "Loss ($)",
        logBase: 10,
        min: (extent: Extent) => logMinIncluding(extent, limits, 1.5),
        max: (extent: Extent) => maxIncluding(extent, [...limits, 10], 1.5),
        axisLabel: { formatter: compactMoney, fontSize: AXIS_FONT },
      },
      series: [
        {
          ...scatter(hasClient ? "Covered by the client's limit" : "Loss cases", covered, PEER_COLOR),
          markLine: {
            symbol: "none",
            silent: true,
            data: [
              ...(hasClient ? line(adequacy.clientLimit, `Client limit ${compactMoney(adequacy.clientLimit)}`, CLIENT_COLOR, "insideEndTop") : []),
              ...line(adequacy.medianLimit, `Median peer limit ${compactMoney(adequacy.medianLimit)}`, MEDIAN_COLOR, "insideStartBottom"),
            ],
          },
        },
        ...(hasClient ? [scatter("Above the client's limit", uncovered, UNCOVERED_COLOR)] : []),
      ],
    };
  }, [adequacy, cases, hasClient]);

  const ref = useChart(option);
  const description = !adequacy
    ? "Limit adequacy: not loaded."
    : hasClient
      ? `Scatter chart of ${count(cases.length)} loss cases by amount, with the client's limit of ${money(adequacy.clientLimit)} and the median peer limit of ${money(adequacy.medianLimit)} drawn as lines. ${adequacy.percentCovered}% of the cases are within the client's limit.`
      : `Scatter chart of ${count(cases.length)} loss cases by amount, with the median peer limit of ${money(adequacy.medianLimit)} drawn as a line.`;
  const clientLimit = adequacy?.clientLimit ?? 0;
  const covered = (amount: number) => (amount <= clientLimit ? "yes" : "no");

  const rows = useMemo(
    () =>
      hasClient
        ? [["Loss event ID", "Loss amount", "Within client limit"], ...cases.map((c) => [c.lossEventID, c.lossAmount, c.lossAmount <= clientLimit ? "yes" : "no"])]
        : [["Loss event ID", "Loss amount"], ...cases.map((c) => [c.lossEventID, c.lossAmount])],
    [cases, clientLimit, hasClient],
  );
  const shown = showAll ? cases : cases.slice(0, TABLE_ROWS);

  return (
    <FigurePanel
      id="adequacy"
      title="Limit adequacy"
      counts={counts}
      loading={loading}
      hasData={adequacy !== null}
      problem={problem}
      sentence={adequacy ? `${adequacy.percentCovered}% of the peers' ${count(cases.length)} loss cases are within the client's limit of ${money(adequacy.clientLimit)}.` : undefined}
      guidance={hasClient ? undefined : "Enter the client's limit to see how many of the peers' losses it would cover."}
      description={description}
      csv={adequacy ? { filename: "limit-adequacy.csv", rows } : null}
      chart={
        // The canvas element stays mounted (the chart is bound to it); an empty group hides it.
        <>
          <div class={`chart-canvas${adequacy && cases.length === 0 ? " chart-hidden" : ""}`} ref={ref} />
          {adequacy && cases.length === 0 ? <p class="empty">No loss cases in this peer group.</p> : null}
        </>
      }
      facts={
        adequacy ? (
          <dl class="facts">
            {hasClient ? (
              <div>
                <dt>Client limit</dt>
                <dd>{money(adequacy.clientLimit)}</dd>
              </div>
            ) : null}
            <div>
              <dt>Median peer limit</dt>
              <dd data-testid="adequacy-median-limit">{money(adequacy.medianLimit)}</dd>
            </div>
            {hasClient ? (
              <div>
                <dt>Cases covered</dt>
                <dd data-testid="adequacy-percent-covered">{adequacy.percentCovered}%</dd>
              </div>
            ) : null}
            <div>
              <dt>Average loss</dt>
              <dd>{money(adequacy.averageLoss)}</dd>
            </div>
            <div>
              <dt>Largest loss</dt>
              <dd>{money(adequacy.maxLoss)}</dd>
            </div>
          </dl>
        ) : null
      }
      table={
        <>
          <table>
            <caption>
              Loss cases, smallest first ({count(cases.length)}
              {shown.length < cases.length ? `, first ${count(shown.length)} shown` : ""})
            </caption>
            <thead>
              <tr>
                <th scope="col">Loss event</th>
                <th scope="col">Amount</th>
                {hasClient ? <th scope="col">Within client limit</th> : null}
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <tr key={c.lossEventID} class={hasClient && covered(c.lossAmount) === "no" ? "uncovered-row" : undefined}>
                  <th scope="row">{c.lossEventID}</th>
                  <td>{money(c.lossAmount)}</td>
                  {hasClient ? <td>{covered(c.lossAmount)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
          {shown.length < cases.length ? (
            <button type="button" class="button-link" onClick={() => setShowAll(true)}>
              Show all {count(cases.length)} cases
            </button>
          ) : null}
        </>
      }
    />
  );
}
