import { clientLine, type ReportContext } from "./report-context.js";

/**
 * The printed report's foot (issue 27): the group definition, the data version and the
 * date in one place, so a page handed on alone still says what it rests on.
 */
export function ReportFooter({ context }: { context: ReportContext }) {
  return (
    <footer class="report-footer print-only" data-testid="report-footer">
      <p>
        Peer group: {context.group}. Client: {clientLine(context) || "none chosen"}. Data version {context.dataVersion}.
        Printed {context.date}. Figures from the Commercial Policy Benchmark API.
      </p>
    </footer>
  );
}
