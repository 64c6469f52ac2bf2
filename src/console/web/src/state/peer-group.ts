/**
 * The peer group and the client's amounts: the console's whole state, kept in the URL
 * query so a peer group is a link (issue 16). Query names are the API's own (spec 2.1,
 * 2.2) so a link reads like the request it makes; defaults are left out of the link.
 */
export const EXPOSURE_TYPES = ["Revenues", "Employees", "Market Cap"] as const;
export type ExposureType = (typeof EXPOSURE_TYPES)[number];

/** Spec 2.2 / SEMANTICS.md 2: the allowed trailing months; newest must be less than oldest. */
export const OLDEST_TRAILING = [24, 12, 9, 6, 3] as const;
export const NEWEST_TRAILING = [0, 3, 6, 9, 12] as const;
export const DEFAULT_OLDEST = 24;
export const DEFAULT_NEWEST = 0;

export interface PeerGroup {
  /** The company the group was built around ("" for none); only for display and prefill. */
  companyId: string;
  naics: string[];
  coverageId: string;
  /** Empty means every line of business (the API's "0"). */
  lineOfBusinessId: string[];
  exposureType: ExposureType;
  exposureRangeLow: string;
  exposureRangeHigh: string;
  /** Empty means All. */
  organizationType: string[];
  oldestTrailing: number;
  newestTrailing: number;
  /** The client's amounts, as decimal text: they place the client, never filter (SEMANTICS.md 1). */
  limit: string;
  premium: string;
  retention: string;
}

const list = (value: string | null) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

const oneOf = <T extends number>(allowed: readonly T[], value: string | null, fallback: T): T => {
  const n = Number(value);
  return value !== null && (allowed as readonly number[]).includes(n) ? (n as T) : fallback;
};

/** Reads a peer group from a query string; anything unreadable falls back to its default. */
export function parsePeerGroup(search: string): PeerGroup {
  const q = new URLSearchParams(search);
  const exposure = q.get("exposureType");
  return {
    companyId: q.get("companyId") ?? "",
    naics: list(q.get("naics")),
    coverageId: q.get("coverageId") ?? "",
    lineOfBusinessId: list(q.get("lineOfBusinessId")).filter((id) => id !== "0"),
    exposureType: EXPOSURE_TYPES.find((t) => t === exposure) ?? "Revenues",
    exposureRangeLow: q.get("exposureRangeLow") ?? "",
    exposureRangeHigh: q.get("exposureRangeHigh") ?? "",
    organizationType: list(q.get("organizationType")).filter((code) => code.toLowerCase() !== "all"),
    oldestTrailing: oneOf(OLDEST_TRAILING, q.get("oldestTrailing"), DEFAULT_OLDEST),
    newestTrailing: oneOf(NEWEST_TRAILING, q.get("newestTrailing"), DEFAULT_NEWEST),
    limit: q.get("limit") ?? "",
    premium: q.get("premium") ?? "",
    retention: q.get("retention") ?? "",
  };
}

/** The query string of a peer group (with a leading "?", or "" when empty). */
export function serializePeerGroup(group: PeerGroup): string {
  const q = new URLSearchParams();
  const put = (key: string, value: string) => {
    if (value !== "") q.set(key, value);
  };
  put("companyId", group.companyId);
  put("naics", group.naics.join(","));
  put("coverageId", group.coverageId);
  put("lineOfBusinessId", group.lineOfBusinessId.join(","));
  if (group.exposureType !== "Revenues") put("exposureType", group.exposureType);
  put("exposureRangeLow", group.exposureRangeLow);
  put("exposureRangeHigh", group.exposureRangeHigh);
  put("organizationType", group.organizationType.join(","));
  if (group.oldestTrailing !== DEFAULT_OLDEST) put("oldestTrailing", String(group.oldestTrailing));
  if (group.newestTrailing !== DEFAULT_NEWEST) put("newestTrailing", String(group.newestTrailing));
  put("limit", group.limit);
  put("premium", group.premium);
  put("retention", group.retention);
  const text = q.toString();
  return text ? `?${text}` : "";
}

/** Non-negative decimal text with at most 2 decimals (money is cents: SEMANTICS.md 5). */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

export const isAmount = (text: string) => AMOUNT.test(text.trim());

/**
 * What still keeps the group from being asked for, in the builder's words. The API checks
 * everything again (and its 400 names fields); this only avoids requests bound to fail.
 */
export function missingInputs(group: PeerGroup): string[] {
  const problems: string[] = [];
  if (group.naics.length === 0) problems.push("Choose at least one NAICS code.");
  else if (group.naics.some((code) => !/^\d{2,3}$/.test(code))) problems.push("NAICS codes have 2 or 3 digits.");
  if (!/^\d+$/.test(group.coverageId)) problems.push("Choose a coverage.");
  if (!isAmount(group.exposureRangeLow) || !isAmount(group.exposureRangeHigh)) problems.push("Enter the exposure range (both ends).");
  else if (Number(group.exposureRangeLow) > Number(group.exposureRangeHigh)) problems.push("The exposure range's low end is above its high end.");
  if (group.newestTrailing >= group.oldestTrailing) problems.push("The window's newest end must be more recent than its oldest end.");
  for (const [name, value] of [["limit", group.limit], ["premium", group.premium], ["retention", group.retention]] as const) {
    if (value !== "" && !isAmount(value)) problems.push(`The client's ${name} must be an amount in dollars, up to 2 decimals.`);
  }
  return problems;
}

/** True when the trailing window is the default one (24 months back to today). */
export const isDefaultWindow = (group: PeerGroup) => group.oldestTrailing === DEFAULT_OLDEST && group.newestTrailing === DEFAULT_NEWEST;
