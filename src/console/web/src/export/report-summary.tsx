import type { ReferenceData } from "../api/types.js";
import { coverageName, lineOfBusinessName, naicsLabel, organizationTypeName } from "../reference/reference-names.js";
import { count, money } from "../figures/format.js";
import type { PeerGroup } from "../state/peer-group.js";
import { clientLine, monthsBefore, type ReportContext } from "./report-context.js";

interface ReportSummaryProps {
  group: PeerGroup;
  reference: ReferenceData | null;
  context: ReportContext;
}

const amount = (text: string, unit: "dollars" | "count" = "dollars") =>
  text === "" ? "not given" : unit === "dollars" ? money(text) : count(Number(text));

/**
 * The peer group in words, the data version and the date: the head of the printed report
 * (issue 16, item 5), and on screen a reminder of what the figures below are for.
 */
export function ReportSummary({ group, reference, context }: ReportSummaryProps) {
  const companyName = context.client;
  const staleAmounts = group.amountsCoverageId !== "" && group.amountsCoverageId !== group.coverageId;
  const lobs = group.lineOfBusinessId.map((id) => lineOfBusinessName(reference, group.coverageId, id));
  const unit = group.exposureType === "Employees" ? "count" : "dollars";
  // Dates, in the one format the report uses (ISO): "24 months ago to today" on paper is no date at all.
  const period = `${monthsBefore(context.date, group.oldestTrailing)} to ${monthsBefore(context.date, group.newestTrailing)}`;
  const rows: [string, string][] = [
    ...(companyName ? [["Client", clientLine(context)] as [string, string]] : []),
    ["Industry (NAICS)", group.naics.map((code) => naicsLabel(reference, code)).join("; ")],
    ["Coverage", coverageName(reference, group.coverageId)],
    ["Lines of business", lobs.length ? lobs.join("; ") : "All"],
    [
      "Exposure",
      `${group.exposureType} from ${amount(group.exposureRangeLow, unit)} to ${amount(group.exposureRangeHigh, unit)}`,
    ],
    [
      "Organization types",
      group.organizationType.length
        ? group.organizationType.map((code) => organizationTypeName(reference, code)).join("; ")
        : "All",
    ],
    ["Program window", period],
    ["Client's limit", amount(group.limit)],
    ["Client's premium", amount(group.premium)],
    ["Client's retention", amount(group.retention)],
  ];
  return (
    <section class="report-summary" aria-labelledby="report-title" data-testid="report-summary">
      <h2 id="report-title" tabIndex={-1}>
        Peer benchmark{companyName ? `: ${companyName}` : ""}
      </h2>
      <dl class="definition">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {staleAmounts ? (
        <p class="warning" data-testid="report-amounts-warning">
          The client's limit, premium and retention were entered for {coverageName(reference, group.amountsCoverageId)},
          not {coverageName(reference, group.coverageId)}.
        </p>
      ) : null}
      <p class="provenance">
        Data version <code data-testid="data-version">{reference ? reference.datasetVersion : "unknown"}</code>
        {" · "}Report date <time dateTime={context.date}>{context.date}</time>
      </p>
    </section>
  );
}
