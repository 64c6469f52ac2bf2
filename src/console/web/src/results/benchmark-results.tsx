import { widenAdvice, type ApiProblem } from "../api/problem.js";
import type { ReferenceData } from "../api/types.js";
import { DistributionFigure } from "../figures/distribution-figure.js";
import type { FigureCounts } from "../figures/figure-panel.js";
import { LimitAdequacyFigure } from "../figures/limit-adequacy-figure.js";
import { RpmFigure } from "../figures/rpm-figure.js";
import { ReportSummary } from "../export/report-summary.js";
import { isDefaultWindow, type PeerGroup } from "../state/peer-group.js";
import type { BenchmarkResults } from "./use-benchmark.js";

interface BenchmarkResultsViewProps {
  group: PeerGroup;
  results: BenchmarkResults;
  reference: ReferenceData | null;
  companyName: string;
  thinGroupPrograms: number;
}

/**
 * Every figure of the group with the sample it rests on, a warning when the group is
 * thin, and guidance when the disclosure rule withholds figures.
 */
export function BenchmarkResultsView({ group, results, reference, companyName, thinGroupPrograms }: BenchmarkResultsViewProps) {
  const { assessment, rpm, adequacy, adequacyPrograms } = results;
  // Client marks come from the group each answer was asked for, not the group being typed.
  const assessed = assessment.group ?? group;
  const rpmGroup = rpm.group ?? group;
  const adequacyGroup = adequacy.group ?? group;
  const a = assessment.answer?.data ?? null;
  const counts: FigureCounts = { programs: a?.totalProgramCount ?? null, losses: a?.totalLossCount ?? null };
  // Its window note follows the answer drawn, so the figure stays one group's while the next loads.
  const adequacyCounts: FigureCounts = isDefaultWindow(adequacyGroup)
    ? counts
    : {
        programs: adequacyPrograms.answer?.data ?? null,
        losses: counts.losses,
        programsNote: "Programs of the last 24 months: limit adequacy's median peer limit always uses that window.",
      };
  const refusals = [assessment.problem, rpm.problem, adequacy.problem, adequacyPrograms.problem].filter((p): p is ApiProblem => p?.isRefusal === true);
  const thin = a !== null && a.totalProgramCount < thinGroupPrograms;

  return (
    <div class="results" aria-busy={results.busy} data-testid="results">
      <ReportSummary group={group} reference={reference} companyName={companyName} />
      {thin ? (
        <p class="warning" role="alert" data-testid="thin-group-warning">
          Thin peer group: these figures rest on {a.totalProgramCount} program{a.totalProgramCount === 1 ? "" : "s"}, fewer than {thinGroupPrograms}. Read them with
          care, or widen the group.
        </p>
      ) : null}
      {refusals.length > 0 ? (
        <div class="guidance" role="status" data-testid="refusal-guidance">
          <p class="guidance-title">Some figures are withheld to keep contributors' programs confidential</p>
          <p>{widenAdvice(refusals[0]!.disclosure!)}</p>
        </div>
      ) : null}
      <div class="figures">
        <DistributionFigure kind="limit" distribution={a?.limitDistribution ?? null} clientAmount={assessed.limit} counts={counts} loading={assessment.loading} problem={assessment.problem} />
        <DistributionFigure kind="premium" distribution={a?.premiumDistribution ?? null} clientAmount={assessed.premium} counts={counts} loading={assessment.loading} problem={assessment.problem} />
        <DistributionFigure kind="retention" distribution={a?.retentionDistribution ?? null} clientAmount={assessed.retention} counts={counts} loading={assessment.loading} problem={assessment.problem} />
        <RpmFigure rpm={rpm.answer?.data ?? null} hasClient={Number(rpmGroup.limit) > 0 && rpmGroup.premium !== ""} counts={counts} loading={rpm.loading} problem={rpm.problem} />
        <LimitAdequacyFigure adequacy={adequacy.answer?.data ?? null} hasClient={adequacyGroup.limit !== ""} counts={adequacyCounts} loading={adequacy.loading} problem={adequacy.problem} />
      </div>
    </div>
  );
}
