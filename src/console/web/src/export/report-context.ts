import type { ReferenceData } from "../api/types.js";
import { count, money } from "../figures/format.js";
import { coverageName, lineOfBusinessName, naicsLabel, organizationTypeName } from "../reference/reference-names.js";
import type { PeerGroup } from "../state/peer-group.js";
import type { CsvRows } from "./csv.js";

/**
 * What every exported piece says it is about (issue 27): the client, the coverage, the
 * peer group in one line, the data version and the date. A CSV or a printed page handed
 * on without the screen must still say whose figures, for which group, from which data.
 */
export interface ReportContext {
  client: string;
  /** What tells the client from a namesake: "company 1234, NAICS 52" ("" without a client). */
  clientDetail: string;
  coverage: string;
  /** The peer group in one line, its window last. */
  group: string;
  /** The same without the window, for figures that do not use it (the market trend). */
  groupWithoutWindow: string;
  /**
   * Set when the client's amounts were entered for another coverage than the group's: each
   * figure placing them, and each CSV, says so (issue 50); "" otherwise.
   */
  amountsNote: string;
  dataVersion: string;
  /** ISO date, e.g. 2025-06-30. */
  date: string;
}

const amount = (text: string, unit: "dollars" | "count") =>
  text === "" ? "?" : unit === "dollars" ? money(text) : count(Number(text));

/** The peer group in one line, as the report's footer and the CSVs' header print it; `date` dates the window. */
export function describeGroup(group: PeerGroup, reference: ReferenceData | null, date: string): string {
  return `${describeGroupWithoutWindow(group, reference)}; ${windowText(group, date)}`;
}

function describeGroupWithoutWindow(group: PeerGroup, reference: ReferenceData | null): string {
  const unit = group.exposureType === "Employees" ? "count" : "dollars";
  const lobs = group.lineOfBusinessId.map((id) => lineOfBusinessName(reference, group.coverageId, id));
  return [
    `NAICS ${group.naics.map((code) => naicsLabel(reference, code)).join(", ")}`,
    `${coverageName(reference, group.coverageId)}, ${lobs.length ? lobs.join(", ") : "all lines of business"}`,
    `${group.exposureType} ${amount(group.exposureRangeLow, unit)} to ${amount(group.exposureRangeHigh, unit)}`,
    group.organizationType.length
      ? group.organizationType.map((code) => organizationTypeName(reference, code)).join(", ")
      : "all organization types",
  ].join("; ");
}

/**
 * The window as dates, one format (ISO) everywhere (issue 50: "24 months ago to today"
 * on paper is no date at all): months back from `date`, the day the figures were read.
 */
export function windowText(group: PeerGroup, date: string): string {
  return `programs from ${monthsBefore(date, group.oldestTrailing)} to ${monthsBefore(date, group.newestTrailing)}`;
}

/** The ISO date `months` months before `date`, on the same day, or the month's last when it has none. */
export function monthsBefore(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) - months;
  const [y, m] = [Math.floor(index / 12), (index % 12) + 1];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
}

export function reportContext(
  group: PeerGroup,
  reference: ReferenceData | null,
  client: { name: string; id: string; naics: string | null } | null,
  now = new Date(),
): ReportContext {
  const date = now.toISOString().slice(0, 10);
  return {
    client: client?.name ?? "",
    clientDetail: client ? `company ${client.id}${client.naics ? `, NAICS ${client.naics}` : ""}` : "",
    coverage: coverageName(reference, group.coverageId),
    group: describeGroup(group, reference, date),
    groupWithoutWindow: describeGroupWithoutWindow(group, reference),
    amountsNote:
      group.amountsCoverageId !== "" && group.amountsCoverageId !== group.coverageId
        ? `The client's amounts were entered for ${coverageName(reference, group.amountsCoverageId)}, not ${coverageName(reference, group.coverageId)}: their percentiles place them among ${coverageName(reference, group.coverageId)} peers.`
        : "",
    dataVersion: reference ? String(reference.datasetVersion) : "unknown",
    date,
  };
}

/** The client as the report names it, with what tells it from a namesake; "" without one. */
export const clientLine = (context: ReportContext) =>
  context.client ? `${context.client} (${context.clientDetail})` : "";

/** Lower-case words joined by hyphens: a file name any system keeps as it is. */
const slug = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "-")
    .slice(0, 40)
    .replace(/-$/, "");

/** e.g. `limit-distribution_abbott-campbell-corp_d-o_data-v3_2025-06-30.csv`. */
export function csvFilename(figure: string, context: ReportContext): string {
  return (
    [figure, slug(context.client) || "no-client", slug(context.coverage), `data-v${context.dataVersion}`, context.date]
      .filter((p) => p !== "")
      .join("_") + ".csv"
  );
}

/**
 * The lines above a CSV's table, then a blank line: what the figures are for. `span`
 * replaces the window for a figure that does not use it (the trend's periods).
 */
export function csvHeaderRows(figureTitle: string, context: ReportContext, span?: string): CsvRows {
  return [
    ["Figure", figureTitle],
    ["Client", clientLine(context) || "none chosen"],
    ["Coverage", context.coverage],
    ["Peer group", span === undefined ? context.group : `${context.groupWithoutWindow}; ${span}`],
    ...(context.amountsNote ? [["Note", context.amountsNote]] : []),
    ["Data version", context.dataVersion],
    ["Date", context.date],
    [],
  ];
}
