import { Fragment } from "preact";
import { useMemo } from "preact/hooks";
import type { ApiProblem } from "../api/problem.js";
import type { MarketTrend, TrendPeriod } from "../api/types.js";
import { useChart } from "../charts/use-chart.js";
import { csvFilename, csvHeaderRows, type ReportContext } from "../export/report-context.js";
import type { PeriodMonths } from "../state/peer-group.js";
import { FigurePanel } from "./figure-panel.js";
import { count, moneyOrDash } from "./format.js";
import { PeriodSwitch } from "./period-switch.js";
import { periodsText, trendHeadline } from "./trend-headline.js";
import { trendChartOption, trendDescription } from "./trend-chart-option.js";
import {
  TREND_MEASURES,
  changeOf,
  changeText,
  chronological,
  isThin,
  thinMark,
  quartilesOf,
  trendCsvRows,
  withheldReason,
  type TrendMeasure,
} from "./trend-rows.js";

interface TrendFigureProps {
  trend: MarketTrend | null;
  /** Periods on fewer programs are marked and never headlined (CONSOLE_THIN_GROUP_PROGRAMS). */
  thinPrograms: number;
  periodMonths: PeriodMonths;
  onPeriodMonths: (months: PeriodMonths) => void;
  loading: boolean;
  problem: ApiProblem | null;
  context: ReportContext;
}

const TITLE = "Market trend";

/** One measure's cells of a period's row: quartiles and change, or one cell saying there is none. */
function MeasureCells({
  period,
  measure,
  quartiles,
}: {
  period: TrendPeriod;
  measure: TrendMeasure;
  quartiles: boolean;
}) {
  const q = quartilesOf(period, measure);
  const id = `trend-${measure.key}`;
  return (
    <>
      {quartiles ? <td data-testid={`${id}-q1`}>{moneyOrDash(q?.firstQuartile)}</td> : null}
      <td data-testid={`${id}-median`}>{moneyOrDash(q?.median)}</td>
      {quartiles ? <td data-testid={`${id}-q3`}>{moneyOrDash(q?.thirdQuartile)}</td> : null}
      <td data-testid={`${id}-change`}>{changeText(changeOf(period, measure))}</td>
    </>
  );
}

/**
 * A period's row. A withheld period (DISCLOSURE_RULE=standard) says so, and why, across the
 * figures' cells: its figures are unknown, not zero. `quartiles` adds Q1 and Q3 (the screen's
 * table; paper has the medians and changes, the band is on the chart).
 */
function PeriodRow({ period, quartiles, thin }: { period: TrendPeriod; quartiles: boolean; thin: boolean }) {
  const span = TREND_MEASURES.length * (quartiles ? 4 : 2) + 1;
  return (
    <tr
      data-testid="trend-row"
      data-period-end={period.periodEnd}
      class={period.withheld ? "withheld-row" : thin ? "thin-row" : undefined}
    >
      <th scope="row">
        {quartiles ? `${period.periodStart} – ` : ""}
        {period.periodEnd}
        {thin ? (
          <span class="thin-mark" data-testid="trend-thin">
            {" "}
            ({thinMark(period)})
          </span>
        ) : null}
      </th>
      {period.withheld ? (
        // First, beside the period: a reason 1,700 px to the right, past the scroll, looked like blank figures.
        <td colSpan={span} class="withheld-cell" data-testid="trend-withheld">
          Withheld: {withheldReason(period.withheld)}
        </td>
      ) : (
        <>
          <td data-testid="trend-programs">{count(period.programCount ?? 0)}</td>
          {TREND_MEASURES.map((measure) => (
            <MeasureCells key={measure.key} period={period} measure={measure} quartiles={quartiles} />
          ))}
        </>
      )}
    </tr>
  );
}

function TrendTable({
  periods,
  quartiles,
  caption,
  thinPrograms,
}: {
  periods: readonly TrendPeriod[];
  quartiles: boolean;
  caption: string;
  thinPrograms: number;
}) {
  return (
    <table class={quartiles ? undefined : "band-counts trend-numbers"}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{quartiles ? "Period (after – up to)" : "Period ending"}</th>
          <th scope="col">Programs</th>
          {TREND_MEASURES.map((m) => (
            <Fragment key={m.key}>
              {quartiles ? <th scope="col">{m.title} Q1</th> : null}
              <th scope="col">{m.title} median</th>
              {quartiles ? <th scope="col">{m.title} Q3</th> : null}
              <th scope="col">{m.title} change</th>
            </Fragment>
          ))}
        </tr>
      </thead>
      <tbody>
        {periods.map((period) => (
          <PeriodRow key={period.periodEnd} period={period} quartiles={quartiles} thin={isThin(period, thinPrograms)} />
        ))}
      </tbody>
    </table>
  );
}

/**
 * How the peer group's programs moved (SEMANTICS.md 13): the median and quartile band of
 * RPM, premium and limit per period, with the medians' changes, over 12-, 6- or 3-month
 * periods. It rests on every program of the group in those periods, not on the window.
 */
export function TrendFigure({
  trend,
  thinPrograms,
  periodMonths,
  onPeriodMonths,
  loading,
  problem,
  context,
}: TrendFigureProps) {
  const periods = useMemo(() => trend?.periods ?? [], [trend]);
  const option = useMemo(() => (trend ? trendChartOption(trend.periods, thinPrograms) : null), [trend, thinPrograms]);
  const ref = useChart(option, "trend");
  const answered = periods.filter((p) => !p.withheld);
  const withheldCount = periods.length - answered.length;
  const allWithheld = trend !== null && periods.length > 0 && answered.length === 0;
  const months = trend?.periodMonths ?? periodMonths;
  const programs = trend ? answered.reduce((sum, p) => sum + (p.programCount ?? 0), 0) : null;
  const losses = trend ? periods.reduce((sum, p) => sum + p.lossCount, 0) : null;
  const note = trend
    ? `Programs of the ${periods.length} periods of ${months} months shown, not of the window` +
      (withheldCount ? `; ${withheldCount} withheld period${withheldCount === 1 ? " is" : "s are"} not counted.` : ".")
    : undefined;
  const rows = useMemo(
    () => [
      ...csvHeaderRows(`${TITLE}, ${months}-month periods`, context, periodsText(periods, months)),
      ...trendCsvRows(periods, thinPrograms),
    ],
    [periods, months, context, thinPrograms],
  );

  return (
    <FigurePanel
      id="trend"
      title={TITLE}
      counts={{ programs, losses, lossesLabel: "Losses in the periods", ...(note ? { programsNote: note } : {}) }}
      loading={loading}
      hasData={trend !== null}
      problem={problem}
      withheld={
        allWithheld
          ? "the median and quartiles of RPM, premium and limit in every period, and their changes."
          : undefined
      }
      controls={<PeriodSwitch value={periodMonths} onChange={onPeriodMonths} />}
      sentence={trend ? trendHeadline(periods, thinPrograms) : undefined}
      description={trend ? trendDescription(periods, months) : `${TITLE}: not loaded.`}
      csv={trend ? { filename: csvFilename(`market-trend-${months}m`, context), rows } : null}
      printSize="trend"
      printNumbers={
        <TrendTable
          periods={chronological(periods)}
          quartiles={false}
          caption={`Medians per ${months}-month period, and change from the period before`}
          thinPrograms={thinPrograms}
        />
      }
      chart={<div class="chart-canvas chart-canvas-tall" ref={ref} />}
      table={
        <TrendTable
          periods={chronological(periods)}
          quartiles
          caption={`${TITLE}: quartiles per ${months}-month period, oldest first`}
          thinPrograms={thinPrograms}
        />
      }
    />
  );
}
