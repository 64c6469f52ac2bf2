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
  coverage: string;
  group: string;
  dataVersion: string;
  /** ISO date, e.g. 2025-06-30. */
  date: string;
}

const amount = (text: string, unit: "dollars" | "count") =>
  text === "" ? "?" : unit === "dollars" ? money(text) : count(Number(text));

/** The peer group in one line, as the report's footer and the CSVs' header print it. */
export function describeGroup(group: PeerGroup, reference: ReferenceData | null): string {
  const unit = group.exposureType === "Employees" ? "count" : "dollars";
  const lobs = group.lineOfBusinessId.map((id) => lineOfBusinessName(reference, group.coverageId, id));
  return [
    `NAICS ${group.naics.map((code) => naicsLabel(reference, code)).join(", ")}`,
    `${coverageName(reference, group.coverageId)}, ${lobs.length ? lobs.join(", ") : "all lines of business"}`,
    `${group.exposureType} ${amount(group.exposureRangeLow, unit)} to ${amount(group.exposureRangeHigh, unit)}`,
    group.organizationType.length
      ? group.organizationType.map((code) => organizationTypeName(reference, code)).join(", ")
      : "all organization types",
    `programs from ${group.oldestTrailing} months ago to ${group.newestTrailing === 0 ? "today" : `${group.newestTrailing} months ago`}`,
  ].join("; ");
}

export function reportContext(
  group: PeerGroup,
  reference: ReferenceData | null,
  client: string,
  now = new Date(),
): ReportContext {
  return {
    client,
    coverage: coverageName(reference, group.coverageId),
    group: describeGroup(group, reference),
    dataVersion: reference ? String(reference.datasetVersion) : "unknown",
    date: now.toISOString().slice(0, 10),
  };
}

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

/** The lines above a CSV's table, then a blank line: what the figures are for. */
export function csvHeaderRows(figureTitle: string, context: ReportContext): CsvRows {
  return [
    ["Figure", figureTitle],
    ["Client", context.client || "none chosen"],
    ["Coverage", context.coverage],
    ["Peer group", context.group],
    ["Data version", context.dataVersion],
    ["Date", context.date],
    [],
  ];
}
