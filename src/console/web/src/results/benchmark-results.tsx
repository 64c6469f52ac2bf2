import type { ReferenceData } from "../api/types.js";
import { DISTRIBUTION_KINDS } from "../figures/bands.js";
import { DistributionFigure } from "../figures/distribution-figure.js";
import type { FigureCounts } from "../figures/figure-panel.js";
import { LimitAdequacyFigure } from "../figures/limit-adequacy-figure.js";
import { LossExperienceFigure } from "../figures/loss-experience-figure.js";
import { RpmFigure } from "../figures/rpm-figure.js";
import { ReportFooter } from "../export/report-footer.js";
import type { ReportContext } from "../export/report-context.js";
import { ReportSummary } from "../export/report-summary.js";
import { unknownIds } from "../reference/unknown-ids.js";
import { RefusalExplanation, WidenAdvice } from "../refusal/refusal-explanation.js";
import { SuggestionList } from "../refusal/suggestion-list.js";
import { widenOptions } from "../refusal/widen-options.js";
import { TrendFigure } from "../figures/trend-figure.js";
import { isDefaultWindow, type PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";
import type { MarketTrend, PeerGroupSuggestions } from "../api/types.js";
import type { KeyedAnswer } from "./use-answer.js";
import type { BenchmarkResults } from "./use-benchmark.js";
import type { AskedLossExperience } from "./use-loss-experience.js";
import type { Withholding } from "./withheld-figures.js";

interface BenchmarkResultsViewProps {
  group: PeerGroup;
  results: BenchmarkResults;
  withholding: Withholding;
  reference: ReferenceData | null;
  context: ReportContext;
  thinGroupPrograms: number;
  trend: KeyedAnswer<MarketTrend>;
  losses: KeyedAnswer<AskedLossExperience>;
  /** Wider groups, asked for when this one is empty, thin or refused. */
  suggestions: KeyedAnswer<PeerGroupSuggestions>;
  suggestionMinPrograms: number;
  update: UpdatePeerGroup;
}

/** Whether a group needs wider ones offered: no programs, fewer than the thin threshold, or a figure refused. */
export function needsWidening(results: BenchmarkResults, refusals: number, thinGroupPrograms: number): boolean {
  const a = results.assessment.answer?.data;
  return refusals > 0 || (a !== undefined && a.totalProgramCount < thinGroupPrograms);
}

/**
 * Every figure of the group with the sample it rests on; a group with no programs is said
 * to be empty (not thin), a small one thin; withheld figures are explained once, at the top.
 */
export function BenchmarkResultsView(props: BenchmarkResultsViewProps) {
  const { group, results, withholding, reference, context, thinGroupPrograms, trend, losses, suggestions, update } =
    props;
  const { assessment, rpm, adequacy, adequacyPrograms } = results;
  // Client marks come from the group each answer was asked for, not the group being typed.
  const assessed = assessment.group ?? group;
  const rpmGroup = rpm.group ?? group;
  const adequacyGroup = adequacy.group ?? group;
  const a = assessment.answer?.data ?? null;
  const counts: FigureCounts = {
    programs: a?.totalProgramCount ?? null,
    losses: a?.totalLossCount ?? null,
    // A figure answered beside a withheld assessment (RPM under a partial refusal) rests on counts the rule withholds.
    withheld: assessment.problem?.isRefusal ?? false,
  };
  // Its window note follows the answer drawn, so the figure stays one group's while the next loads.
  const adequacyCounts: FigureCounts = isDefaultWindow(adequacyGroup)
    ? counts
    : {
        programs: adequacyPrograms.answer?.data ?? null,
        losses: counts.losses,
        programsNote: "Programs of the last 24 months: limit adequacy's median peer limit always uses that window.",
      };
  const empty = a !== null && a.totalProgramCount === 0;
  // Ids of an old or mistyped link: an empty group is then their doing, and is said to be.
  const unknown = unknownIds(group, reference);
  const thin = a !== null && !empty && a.totalProgramCount < thinGroupPrograms;
  const { withheld, refusals } = withholding;
  // The ways to widen by hand: what the suggestions replace, and what is left when there are none.
  const advice = (
    <WidenAdvice
      options={widenOptions(group, reference)}
      lead={refusals.length > 0 && !empty ? "To see them, widen the group:" : "Widen the group:"}
    />
  );
  const offer = (
    <SuggestionList
      suggestions={suggestions}
      update={update}
      minPrograms={props.suggestionMinPrograms}
      fallback={advice}
    />
  );

  return (
    <div class="results" aria-busy={results.busy || trend.loading || losses.loading} data-testid="results">
      <ReportSummary group={group} reference={reference} context={context} />
      {empty ? (
        <section class="empty-group" role="status" aria-labelledby="empty-group-title" data-testid="empty-group">
          <h2 id="empty-group-title">No programs match this peer group</h2>
          <p>
            No company's program fits every condition of the group in this window, so there is nothing to benchmark
            against.
          </p>
          {unknown.length > 0 ? (
            <p data-testid="empty-group-unknown">
              The group names {unknown.join(", ")}, which the reference data does not have: no program can match it.
            </p>
          ) : null}
          {offer}
        </section>
      ) : null}
      {thin ? (
        <p class="warning" role="alert" data-testid="thin-group-warning">
          Thin peer group: these figures rest on {a.totalProgramCount} program{a.totalProgramCount === 1 ? "" : "s"},
          fewer than {thinGroupPrograms}. Read them with care, or widen the group.
        </p>
      ) : null}
      {thin && refusals.length === 0 ? (
        <div class="suggestions-box" data-testid="thin-group-suggestions">
          {offer}
        </div>
      ) : null}
      {refusals.length > 0 && !empty ? <RefusalExplanation refusals={refusals}>{offer}</RefusalExplanation> : null}
      {/* The loss experience rests on calendar years, not the window (SEMANTICS.md 15): an empty window may still have years of programs and losses. The trend is still left out: its headline reads the newest period, empty then ("rests on 0 programs"). */}
      <div class="figures">
        {empty ? null : (
          <>
            {DISTRIBUTION_KINDS.map((kind) => (
              <DistributionFigure
                key={kind}
                kind={kind}
                distribution={a?.[`${kind}Distribution`] ?? null}
                clientAmount={assessed[kind]}
                counts={counts}
                loading={assessment.loading}
                problem={assessment.problem}
                withheld={withheld[kind]}
                context={context}
              />
            ))}
            <RpmFigure
              rpm={rpm.answer?.data ?? null}
              hasClient={Number(rpmGroup.limit) > 0 && rpmGroup.premium !== ""}
              counts={counts}
              loading={rpm.loading}
              problem={rpm.problem}
              withheld={withheld.rpm}
              context={context}
            />
            <LimitAdequacyFigure
              adequacy={adequacy.answer?.data ?? null}
              hasClient={adequacyGroup.limit !== ""}
              counts={adequacyCounts}
              loading={adequacy.loading}
              problem={adequacy.problem}
              withheld={withheld.adequacy}
              context={context}
            />
          </>
        )}
        <LossExperienceFigure
          asked={losses.answer?.data ?? null}
          years={group.years}
          onYears={(years) => update({ years })}
          otherLimits={group.otherLimits}
          onOtherLimits={(otherLimits) => update({ otherLimits })}
          thinPrograms={thinGroupPrograms}
          loading={losses.loading}
          problem={losses.problem}
          context={context}
        />
        {empty ? null : (
          <TrendFigure
            thinPrograms={thinGroupPrograms}
            trend={trend.answer?.data ?? null}
            periodMonths={group.periodMonths}
            onPeriodMonths={(periodMonths) => update({ periodMonths })}
            loading={trend.loading}
            problem={trend.problem}
            context={context}
          />
        )}
      </div>
      <ReportFooter context={context} />
    </div>
  );
}
