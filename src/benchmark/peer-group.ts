import { Decimal, toCents } from "./decimal.js";
import { exposureColumn, type ExposureColumn } from "./exposure-type.js";
import type { FieldProblems } from "./field-problems.js";

/** The peer-group inputs every analytics request carries (spec 2.1), as read. */
export interface PeerGroupInput {
  naics: readonly string[];
  coverageId?: number;
  lineOfBusinessId: readonly number[];
  exposureType: string;
  exposureRangeLow?: number;
  exposureRangeHigh?: number;
  organizationType: readonly string[];
}

/** A valid peer group (SEMANTICS.md section 1). */
export interface PeerGroup {
  /** 2-digit codes, matched against the first 2 digits of a company's NAICS code. */
  naics2: string[];
  /** 3-digit codes, matched against the first 3 digits. */
  naics3: string[];
  coverageId: number;
  /** Empty: every line of business of the coverage. */
  lineOfBusinessIds: number[];
  exposure: ExposureColumn;
  exposureLow: Decimal;
  exposureHigh: Decimal;
  /** Upper-case codes; empty: every organization type. */
  organizationTypes: string[];
}

/** Checks the peer-group inputs; undefined when any is broken (the problems say why). */
export function readPeerGroup(
  input: PeerGroupInput,
  problems: FieldProblems,
  text: DecimalText = shortestForm,
): PeerGroup | undefined {
  const before = problems.list.length;
  // A list with a problem already (one over its limit, say) is not read at all.
  const naics = problems.usable("naics") ? input.naics.map((code) => code.trim()).filter((code) => code !== "") : [];
  if (problems.usable("naics")) {
    if (naics.length === 0) problems.add("naics", "is required");
    for (const code of naics) {
      if (!/^\d{2,3}$/.test(code)) problems.add("naics", `${quoted(code)} is not a 2- or 3-digit NAICS code`);
    }
  }
  if (problems.usable("coverageId") && input.coverageId === undefined) problems.add("coverageId", "is required");
  const exposure = exposureColumn(input.exposureType);
  if (problems.usable("exposureType") && !exposure) {
    problems.add(
      "exposureType",
      `${quoted(input.exposureType)} is not an exposure type (Revenues, Employees, Market Cap)`,
    );
  }
  const low = readRequiredAmount("exposureRangeLow", input.exposureRangeLow, problems, text);
  const high = readRequiredAmount("exposureRangeHigh", input.exposureRangeHigh, problems, text);
  if (low && high && low.gt(high)) {
    problems.add("exposureRangeHigh", `must not be less than exposureRangeLow (${low.toString()})`);
  }
  if (problems.usable("organizationType") && input.organizationType.some((type) => type.includes("\u0000"))) {
    problems.add("organizationType", "must not contain a NUL character");
  }
  const listsRead =
    problems.usable("naics") && problems.usable("lineOfBusinessId") && problems.usable("organizationType");
  if (problems.list.length > before || !listsRead || !exposure || !low || !high || input.coverageId === undefined)
    return undefined;

  const lineOfBusinessIds = input.lineOfBusinessId.includes(0) ? [] : [...new Set(input.lineOfBusinessId)];
  const organizationTypes = input.organizationType
    .map((type) => type.trim().toUpperCase())
    .filter((type) => type !== "");
  return {
    naics2: naics.filter((code) => code.length === 2),
    naics3: naics.filter((code) => code.length === 3),
    coverageId: input.coverageId,
    lineOfBusinessIds,
    exposure,
    exposureLow: low,
    exposureHigh: high,
    organizationTypes: organizationTypes.includes("ALL") ? [] : [...new Set(organizationTypes)],
  };
}

/** Longest rejected text a problem repeats: a 1 MiB value is not sent back whole. */
const QUOTED_CHARS = 40;

/** A rejected text in a problem message, quoted, cut after QUOTED_CHARS. */
function quoted(text: string): string {
  return `"${text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text}"`;
}

/** What the database knows of the requested coverage, and which data answered. */
export interface CoverageReference {
  coverageKnown: boolean;
  lineOfBusinessIds: readonly number[];
  /**
   * The dataset version of the data the figures were read from: the database's, read
   * in the figures' own statement, or the peer snapshot's. Answers say it (issue 48).
   */
  datasetVersion: number;
}

/**
 * An unknown coverage, or a line of business (other than 0) outside the coverage,
 * is a 400; LOB membership is checked only when the coverage is valid.
 */
export function checkCoverageReference(
  input: Pick<PeerGroupInput, "coverageId" | "lineOfBusinessId">,
  reference: CoverageReference,
  problems: FieldProblems,
): void {
  if (input.coverageId === undefined || !problems.usable("coverageId")) return;
  if (!reference.coverageKnown) {
    problems.add("coverageId", `${input.coverageId} is not a known coverage`);
    return;
  }
  if (!problems.usable("lineOfBusinessId")) return;
  const known = new Set(reference.lineOfBusinessIds);
  for (const id of new Set(input.lineOfBusinessId)) {
    if (id !== 0 && !known.has(id)) {
      problems.add("lineOfBusinessId", `${id} is not a line of business of coverage ${input.coverageId}`);
    }
  }
}

/**
 * The exact decimal text of an amount field: the caller's own digits where the
 * transport kept them (REST), else the double's shortest form.
 */
export type DecimalText = (field: string, value: number | undefined) => string | undefined;

const shortestForm: DecimalText = (_field, value) => (value === undefined ? undefined : String(value));

/** A selected company's amount (premium, limit, ...): cents, never negative; 0 when not given. */
export function readAmount(
  field: string,
  value: number | undefined,
  problems: FieldProblems,
  text: DecimalText = shortestForm,
): Decimal {
  const written = text(field, value);
  if (written === undefined) return new Decimal(0);
  // gRPC and Connect callers can send NaN and ±Infinity as doubles; they are no amounts.
  if (!new Decimal(written).isFinite()) {
    if (problems.usable(field)) problems.add(field, `${written} is not a number`);
    return new Decimal(0);
  }
  const cents = toCents(written);
  if (problems.usable(field) && cents.isNegative()) problems.add(field, "must not be negative");
  return cents;
}

function readRequiredAmount(
  field: string,
  value: number | undefined,
  problems: FieldProblems,
  text: DecimalText,
): Decimal | undefined {
  if (!problems.usable(field)) return undefined;
  if (value === undefined) {
    problems.add(field, "is required");
    return undefined;
  }
  const before = problems.list.length;
  const cents = readAmount(field, value, problems, text);
  return problems.list.length === before ? cents : undefined;
}
