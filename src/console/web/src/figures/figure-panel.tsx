import type { ComponentChildren } from "preact";
import type { CsvRows } from "../export/csv.js";
import { CsvLink } from "../export/csv-link.js";
import type { ApiProblem } from "../api/problem.js";
import type { PrintSize } from "../charts/print-size.js";

export interface FigureCounts {
  /** As the API returned them (null while unknown): the sample the figure rests on. */
  programs: number | null;
  losses: number | null;
  /** Says what the program count covers when it is not the figure's own window. */
  programsNote?: string;
  /**
   * What the loss count covers. Most panels' count has no date filter (SEMANTICS.md 8)
   * while the programs are the window's, and the trend's is its periods': labelled, so
   * "Losses 35" beside a trend of 21 reads as two figures, not as one that disagrees.
   */
  lossesLabel?: string;
  /** The counts are withheld by the disclosure rule (not merely unknown yet): said so, not "–". */
  withheld?: boolean;
}

interface FigureFrameProps {
  /** The data-testid prefix and element id prefix: limit, premium, retention, rpm, adequacy, trend, loss-experience. */
  id: string;
  title: string;
  counts: FigureCounts;
  /** A request is under way; the last answer stays drawn meanwhile. */
  loading: boolean;
  /** An answer is at hand (possibly the previous group's, while loading). */
  hasData: boolean;
  problem: ApiProblem | null;
  /**
   * Set when the disclosure rule withholds the figure: what it would show. The reason is
   * said once, above the figures; the panel only says what is missing.
   */
  withheld?: string | undefined;
  /** The spec's chart sentence, or another one-line reading of the figure. */
  sentence?: string | undefined;
  /** A warning about the client's amounts the sentence reads (entered for another coverage). */
  clientNote?: string | undefined;
  /**
   * Shown instead of the sentence when the client's amount the sentence reads is missing:
   * the API still writes one (of $0, in the 0th percentile), which would mislead.
   */
  guidance?: string | undefined;
  csv: { filename: string; rows: CsvRows } | null;
  /** Settings of the figure itself (the trend's period length), shown whatever its state. */
  controls?: ComponentChildren;
  /** Figures beside the chart (limit adequacy's % covered, ...). */
  facts?: ComponentChildren;
}

/** A figure drawn as a chart, with its data in a table view. */
interface ChartView {
  /** What a screen reader hears for the chart itself. */
  description: string;
  /** The chart element (from useChart); rendered inside the labelled container. */
  chart: ComponentChildren;
  /** The table view: the chart's data as a real table. */
  table: ComponentChildren;
  /** The figure's numbers on paper, beside its chart (band counts, quartiles, largest cases). */
  printNumbers?: ComponentChildren;
  /** The chart's size on paper, so its box in the print stylesheet is the size it is drawn at. */
  printSize: PrintSize;
}

/**
 * A figure that is its numbers (the loss experience: counts a broker reads cell by cell):
 * one table, on the screen and on paper, with no chart to describe.
 */
interface NumbersView {
  numbers: ComponentChildren;
}

type FigurePanelProps = FigureFrameProps & (ChartView | NumbersView);

/**
 * The frame every figure shares: title, the program and loss counts it rests on, the
 * sentence, the chart with its description, a table view and the CSV link. A refusal
 * replaces the chart with guidance; the frame stays so the page keeps its shape.
 */
export function FigurePanel(props: FigurePanelProps) {
  const { id, counts, problem, withheld } = props;
  const ready = props.hasData && problem === null && withheld === undefined;
  return (
    <section
      class={`figure figure-${id}`}
      aria-labelledby={`${id}-title`}
      aria-busy={props.loading}
      data-testid={`${id}-figure`}
    >
      <header class="figure-head">
        <h2 id={`${id}-title`}>{props.title}</h2>
        <dl class="counts" aria-label={`${props.title}: sample size`}>
          <div>
            <dt>Programs</dt>
            <dd data-testid={`${id}-programs`}>{counts.programs ?? (counts.withheld ? "withheld" : "–")}</dd>
          </div>
          <div>
            <dt>{counts.lossesLabel ?? "Losses, any date"}</dt>
            <dd data-testid={`${id}-losses`}>{counts.losses ?? (counts.withheld ? "withheld" : "–")}</dd>
          </div>
        </dl>
      </header>
      {counts.programsNote ? <p class="counts-note">{counts.programsNote}</p> : null}
      {props.controls ?? null}
      {withheld !== undefined ? (
        <p class="withheld" data-testid={`${id}-refusal`}>
          <strong>Withheld:</strong> {withheld}
        </p>
      ) : problem && !problem.isRefusal ? (
        <p class="figure-error" role="alert" data-testid={`${id}-error`}>
          This figure could not be computed: {problemText(problem)}
        </p>
      ) : null}
      {props.guidance && ready ? (
        <p class="sentence client-missing" id={`${id}-sentence`} data-testid={`${id}-guidance`}>
          {props.guidance}
        </p>
      ) : props.sentence && ready ? (
        <p class="sentence" id={`${id}-sentence`} data-testid={`${id}-sentence`}>
          {props.sentence}
        </p>
      ) : null}
      {props.clientNote && ready && !props.guidance ? (
        <p class="client-note" role="note" data-testid={`${id}-client-note`}>
          {props.clientNote}
        </p>
      ) : null}
      {"numbers" in props ? (
        ready ? (
          <div class="figure-numbers" data-testid={`${id}-numbers`}>
            {props.numbers}
          </div>
        ) : null
      ) : (
        <div class="figure-body">
          <div
            class={`chart chart-print-${props.printSize}${ready ? "" : " chart-hidden"}`}
            role="img"
            aria-label={props.description}
            aria-describedby={(props.guidance || props.sentence) && ready ? `${id}-sentence` : undefined}
            data-testid={`${id}-chart`}
          >
            {props.chart}
          </div>
          {ready && props.printNumbers ? (
            <div class="print-numbers print-only" data-testid={`${id}-print-numbers`}>
              {props.printNumbers}
            </div>
          ) : null}
        </div>
      )}
      {props.loading ? (
        <p class="loading" role="status">
          Loading…
        </p>
      ) : null}
      {ready && props.facts ? props.facts : null}
      {ready ? (
        <div class="figure-tools">
          {"table" in props ? (
            <details class="table-view no-print">
              <summary>Table view</summary>
              <div class="table-scroll" data-testid={`${id}-table`}>
                {props.table}
              </div>
            </details>
          ) : null}
          {props.csv ? <CsvLink filename={props.csv.filename} rows={props.csv.rows} testId={`${id}-csv`} /> : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * A problem in a panel's words: the inputs the API refused, each named with why (issue 50:
 * six panels said "1 input is invalid" and none said which), else the API's sentence.
 */
function problemText(problem: ApiProblem): string {
  if (problem.fieldProblems.length === 0) return problem.detail;
  const named = problem.fieldProblems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join("; ");
  return `${named} (see the peer group).`;
}
