import { useMemo, useState } from "preact/hooks";
import type { ApiProblem } from "../api/problem.js";
import type { LimitAdequacy } from "../api/types.js";
import type { CsvRows } from "../export/csv.js";
import type { ChartOption } from "../charts/echarts.js";
import {
  AXIS_FONT,
  CLIENT_COLOR,
  MEDIAN_COLOR,
  PEER_COLOR,
  UNCOVERED_COLOR,
  tooltipBase,
  tooltipHtml,
  OUTER_BOUNDS,
} from "../charts/theme.js";
import { drawnAt, isZeroRow, logAxisFor } from "../charts/log-axis.js";
import { csvFilename, csvHeaderRows, type ReportContext } from "../export/report-context.js";
import { useChart } from "../charts/use-chart.js";
import { FigurePanel, type FigureCounts } from "./figure-panel.js";
import { adequacyHeadline } from "./adequacy-headline.js";
import { paidLosses, type PaidLosses } from "./paid-losses.js";
import { compactMoney, count, money } from "./format.js";

interface LimitAdequacyFigureProps {
  adequacy: LimitAdequacy | null;
  /** False when the answer was asked without a client limit: nothing is covered or not. */
  hasClient: boolean;
  counts: FigureCounts;
  loading: boolean;
  problem: ApiProblem | null;
  withheld?: string | undefined;
  context: ReportContext;
}

/** Rows drawn in the case table before "Show all": a broad group lists tens of thousands. */
const TABLE_ROWS = 200;

/** The largest cases the printed report lists by amount. */
const LARGEST_PRINTED = 5;

/**
 * The peers' loss cases, smallest to largest, against the client's limit and the median
 * peer limit (spec 2.10, SEMANTICS.md 9): a case at or below the client's limit is covered.
 * Amounts span cents to billions, so the amount axis is logarithmic, with $0 losses on a
 * "$0" row of their own (charts/log-axis.ts).
 */
export function LimitAdequacyFigure({
  adequacy,
  hasClient,
  counts,
  loading,
  problem,
  withheld,
  context,
}: LimitAdequacyFigureProps) {
  const [showAll, setShowAll] = useState(false);
  const cases = useMemo(() => adequacy?.listOfCases ?? [], [adequacy]);

  const option = useMemo<ChartOption | null>(() => {
    if (!adequacy) return null;
    const limits = [...(hasClient ? [adequacy.clientLimit] : []), adequacy.medianLimit];
    // The axis reaches both limits even when every loss is far above or below them, so the lines always show.
    const axis = logAxisFor(
      cases.map((c) => c.lossAmount),
      limits,
    );
    const covered: [number, number, number][] = [];
    const uncovered: [number, number, number][] = [];
    cases.forEach((c, i) =>
      (!hasClient || c.lossAmount <= adequacy.clientLimit ? covered : uncovered).push([
        i + 1,
        drawnAt(axis, c.lossAmount),
        c.lossEventID,
      ]),
    );
    // Labels at opposite ends, so two limits close together do not print over each other.
    const line = (value: number, label: string, color: string, position: "insideEndTop" | "insideStartBottom") =>
      value > 0
        ? [
            {
              yAxis: value,
              lineStyle: { color, width: 2, type: "dashed" as const },
              label: { formatter: label, color, position },
            },
          ]
        : [];
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
      // The legend has the top to itself: the amount axis' name stands beside the axis, not above it.
      grid: { left: 8, right: 16, top: 38, bottom: 8, outerBounds: OUTER_BOUNDS },
      legend: { top: OUTER_BOUNDS.top, textStyle: { fontSize: AXIS_FONT } },
      tooltip: {
        ...tooltipBase,
        trigger: "item",
        formatter: (p: unknown) => {
          const { value } = p as { value: [number, number, number] };
          const found = cases[value[0] - 1];
          return found ? tooltipHtml(`Loss event ${found.lossEventID}`, [["Amount", money(found.lossAmount)]]) : "";
        },
      },
      xAxis: {
        type: "value",
        name: "Cases, smallest loss first",
        nameLocation: "middle",
        nameGap: 26,
        min: 0,
        max: cases.length + 1,
        minInterval: 1,
        axisLabel: { fontSize: AXIS_FONT },
      },
      yAxis: {
        type: "log",
        name: "Loss ($)",
        nameLocation: "middle",
        nameRotate: 90,
        nameGap: 44,
        logBase: 10,
        min: axis.min,
        max: axis.max,
        axisLabel: {
          formatter: (value: number) => (isZeroRow(axis, value) ? "$0" : compactMoney(value)),
          fontSize: AXIS_FONT,
        },
      },
      series: [
        {
          ...scatter(hasClient ? "Covered by the client's limit" : "Loss cases", covered, PEER_COLOR),
          markLine: {
            symbol: "none",
            silent: true,
            data: [
              ...(hasClient
                ? line(
                    adequacy.clientLimit,
                    `Client limit ${compactMoney(adequacy.clientLimit)}`,
                    CLIENT_COLOR,
                    "insideEndTop",
                  )
                : []),
              ...line(
                adequacy.medianLimit,
                `Median peer limit ${compactMoney(adequacy.medianLimit)}`,
                MEDIAN_COLOR,
                "insideStartBottom",
              ),
            ],
          },
        },
        ...(hasClient ? [scatter("Above the client's limit", uncovered, UNCOVERED_COLOR)] : []),
      ],
    };
  }, [adequacy, cases, hasClient]);

  const ref = useChart(option, "adequacy");
  const description = !adequacy
    ? "Limit adequacy: not loaded."
    : hasClient
      ? `Scatter chart of ${count(cases.length)} loss cases by amount, with the client's limit of ${money(adequacy.clientLimit)} and the median peer limit of ${money(adequacy.medianLimit)} drawn as lines. ${adequacyHeadline(adequacy)}`
      : `Scatter chart of ${count(cases.length)} loss cases by amount, with the median peer limit of ${money(adequacy.medianLimit)} drawn as a line.`;
  const clientLimit = adequacy?.clientLimit ?? 0;
  const covered = (amount: number) => (amount <= clientLimit ? "yes" : "no");
  const paid = useMemo(() => (adequacy ? paidLosses(adequacy) : null), [adequacy]);

  const rows = useMemo(
    () => [
      ...csvHeaderRows("Limit adequacy", context),
      ...(adequacy && paid ? adequacySummaryRows(adequacy, paid, hasClient) : []),
      ...(hasClient
        ? [
            ["Loss event ID", "Loss amount", "Within client limit"],
            ...cases.map((c) => [c.lossEventID, c.lossAmount, c.lossAmount <= clientLimit ? "yes" : "no"]),
          ]
        : [["Loss event ID", "Loss amount"], ...cases.map((c) => [c.lossEventID, c.lossAmount])]),
    ],
    [adequacy, paid, cases, clientLimit, hasClient, context],
  );
  // The largest cases, largest first, for the printed report (the list is ordered smallest first).
  const largest = cases.slice(-LARGEST_PRINTED).reverse();
  const shown = showAll ? cases : cases.slice(0, TABLE_ROWS);

  return (
    <FigurePanel
      id="adequacy"
      title="Limit adequacy"
      counts={counts}
      loading={loading}
      hasData={adequacy !== null}
      problem={problem}
      sentence={adequacy ? adequacyHeadline(adequacy) : undefined}
      withheld={withheld}
      printSize="adequacy"
      printNumbers={
        adequacy ? (
          <table class="band-counts">
            <caption>Largest loss cases</caption>
            <tbody>
              {largest.map((c) => (
                <tr
                  key={c.lossEventID}
                  class={hasClient && covered(c.lossAmount) === "no" ? "uncovered-row" : undefined}
                >
                  <th scope="row">Loss {c.lossEventID}</th>
                  <td>{money(c.lossAmount)}</td>
                  <td>{hasClient ? (covered(c.lossAmount) === "yes" ? "within" : "above") : ""}</td>
                </tr>
              ))}
              {largest.length === 0 ? (
                <tr>
                  <td colSpan={3}>No loss cases</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        ) : null
      }
      guidance={hasClient ? undefined : "Enter the client's limit to see how many of the peers' losses it would cover."}
      clientNote={hasClient ? context.amountsNote || undefined : undefined}
      description={description}
      csv={adequacy ? { filename: csvFilename("limit-adequacy", context), rows } : null}
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
            {hasClient && paid && paid.zero > 0 && paid.paid > 0 ? (
              <div>
                <dt>Paid losses within the limit</dt>
                <dd data-testid="adequacy-paid-within">
                  {paid.percentPaidWithin}% ({count(paid.paidWithin)} of {count(paid.paid)})
                </dd>
              </div>
            ) : null}
            {hasClient ? (
              <div>
                <dt>
                  {paid && paid.zero > 0
                    ? `All cases within the limit, ${count(paid.zero)} at $0 included`
                    : "Cases covered"}
                </dt>
                <dd data-testid="adequacy-percent-covered">
                  {cases.length > 0 ? `${adequacy.percentCovered}%` : "no cases"}
                </dd>
              </div>
            ) : null}
            {paid && paid.zero > 0 ? (
              <div>
                <dt>Average paid loss</dt>
                <dd data-testid="adequacy-average-paid">{paid.paid > 0 ? money(paid.averagePaid) : "none paid"}</dd>
              </div>
            ) : null}
            <div>
              <dt>{paid && paid.zero > 0 ? "Average of all cases, $0 included" : "Average loss"}</dt>
              <dd data-testid="adequacy-average-loss">{money(adequacy.averageLoss)}</dd>
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
                <tr
                  key={c.lossEventID}
                  class={hasClient && covered(c.lossAmount) === "no" ? "uncovered-row" : undefined}
                >
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

/**
 * The figures above the CSV's case table, as the panel shows them: the API's over every
 * case, and the paid losses' beside them, labelled; then a blank line.
 */
function adequacySummaryRows(adequacy: LimitAdequacy, paid: PaidLosses, hasClient: boolean): CsvRows {
  return [
    ...(hasClient ? [["Client limit", adequacy.clientLimit]] : []),
    ["Median peer limit", adequacy.medianLimit],
    ["Loss cases", adequacy.listOfCases.length],
    ["Cases closed at $0", paid.zero],
    ["Paid losses (above $0)", paid.paid],
    ...(hasClient
      ? [
          ["Paid losses within the client limit (%)", paid.paid > 0 ? paid.percentPaidWithin : ""],
          ["All cases within the client limit, $0 included (%)", adequacy.percentCovered],
        ]
      : []),
    ["Average paid loss", paid.paid > 0 ? paid.averagePaid : ""],
    ["Average of all cases, $0 included", adequacy.averageLoss],
    ["Largest loss", adequacy.maxLoss],
    [],
  ];
}
