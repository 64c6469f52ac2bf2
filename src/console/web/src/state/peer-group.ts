/**
 * The peer group and the client's amounts: the console's whole state, kept in the URL
 * query so a peer group is a link (issue 16). Query names are the API's own (spec 2.1,
 * 2.2) so a link reads like the request it makes; defaults are left out of the link.
 */
import { parseAmount } from "./amount-text.js";

export const EXPOSURE_TYPES = ["Revenues", "Employees", "Market Cap"] as const;
export type ExposureType = (typeof EXPOSURE_TYPES)[number];

/** Spec 2.2 / SEMANTICS.md 2: the allowed trailing months; newest must be less than oldest. */
export const OLDEST_TRAILING = [24, 12, 9, 6, 3] as const;
export const NEWEST_TRAILING = [0, 3, 6, 9, 12] as const;
export const DEFAULT_OLDEST = 24;
export const DEFAULT_NEWEST = 0;

/**
 * The market trend's period lengths (SEMANTICS.md 13), and how many periods each shows:
 * five years, four years of halves, three years of quarters (periods * months <= 120 and
 * periods <= 12), so a switch changes the grain without changing the story's length much.
 */
export const TREND_PERIODS = { 12: 5, 6: 8, 3: 12 } as const;
export type PeriodMonths = keyof typeof TREND_PERIODS;
export const PERIOD_MONTHS = [12, 6, 3] as const satisfies readonly PeriodMonths[];
export const DEFAULT_PERIOD_MONTHS: PeriodMonths = 12;

/**
 * The loss experience's spans (SEMANTICS.md 15 takes 1 to 20 years): the API's default
 * five, a decade, and the most it answers. A view setting, like the trend's periods.
 */
export const LOSS_YEARS = [5, 10, 20] as const;
export type LossYears = (typeof LOSS_YEARS)[number];
export const DEFAULT_LOSS_YEARS: LossYears = 5;

/** Limits the broker weighs beside the client's: the API answers three limits at most, the client's among them. */
export const MAX_OTHER_LIMITS = 2;

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
  /**
   * The coverage the client's amounts were entered for, when the coverage has changed since
   * ("" otherwise): a limit typed for D&O is not the client's Cyber limit, so the page says so
   * until the broker confirms or retypes them. In the link, so a shared report says it too.
   */
  amountsCoverageId: string;
  /** The market trend's period length: a view setting, in the link like the group. */
  periodMonths: PeriodMonths;
  /** The loss experience's years: a view setting, in the link like the group. */
  years: LossYears;
  /**
   * Limits to weigh beside the client's (at most MAX_OTHER_LIMITS), as amount text: the
   * loss experience counts the paid losses above each. Like the client's amounts they
   * place, never filter; text that is no amount stays, for its field to mark.
   */
  otherLimits: string[];
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

/**
 * An amount from a link, read as a typed one is ("2M" is 2000000); one that is not an
 * amount stays as it was, for its field to mark.
 */
const amountParam = (value: string | null) => {
  const text = value ?? "";
  return isAmount(text) ? text : (parseAmount(text) ?? text);
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
    exposureRangeLow: amountParam(q.get("exposureRangeLow")),
    exposureRangeHigh: amountParam(q.get("exposureRangeHigh")),
    organizationType: list(q.get("organizationType")).filter((code) => code.toLowerCase() !== "all"),
    oldestTrailing: oneOf(OLDEST_TRAILING, q.get("oldestTrailing"), DEFAULT_OLDEST),
    newestTrailing: oneOf(NEWEST_TRAILING, q.get("newestTrailing"), DEFAULT_NEWEST),
    limit: amountParam(q.get("limit")),
    premium: amountParam(q.get("premium")),
    retention: amountParam(q.get("retention")),
    amountsCoverageId: q.get("amountsCoverageId") ?? "",
    periodMonths: oneOf(PERIOD_MONTHS, q.get("periodMonths"), DEFAULT_PERIOD_MONTHS),
    years: oneOf(LOSS_YEARS, q.get("years"), DEFAULT_LOSS_YEARS),
    otherLimits: list(q.get("otherLimits")).slice(0, MAX_OTHER_LIMITS).map(amountParam),
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
  put("amountsCoverageId", group.amountsCoverageId);
  if (group.periodMonths !== DEFAULT_PERIOD_MONTHS) put("periodMonths", String(group.periodMonths));
  if (group.years !== DEFAULT_LOSS_YEARS) put("years", String(group.years));
  put("otherLimits", group.otherLimits.join(","));
  const text = q.toString();
  return text ? `?${text}` : "";
}

/** Non-negative decimal text with at most 2 decimals (money is cents: SEMANTICS.md 5). */
const AMOUNT = /^\d+(\.\d{1,2})?$/;

export const isAmount = (text: string) => AMOUNT.test(text.trim());

/** The client's amounts emptied: what goes with a change of client. */
export const NO_CLIENT_AMOUNTS = { limit: "", premium: "", retention: "", amountsCoverageId: "" } as const;

export const hasClientAmounts = (group: PeerGroup) =>
  group.limit !== "" || group.premium !== "" || group.retention !== "";

/** True when the exposure range's low end is above its high end (both ends being amounts). */
export const isRangeReversed = (group: PeerGroup) =>
  isAmount(group.exposureRangeLow) &&
  isAmount(group.exposureRangeHigh) &&
  Number(group.exposureRangeLow) > Number(group.exposureRangeHigh);

/**
 * What keeps the group from being asked for, in the builder's words: first what is not
 * there yet (the onboarding card lists it), then what is there but wrong (marked on its
 * fields). The API checks everything again (and its 400 names fields); this only avoids
 * requests bound to fail.
 */
export function missingInputs(group: PeerGroup): string[] {
  return [...absentInputs(group), ...invalidInputs(group)];
}

/** Inputs not given yet: a group still being built. */
export function absentInputs(group: PeerGroup): string[] {
  const problems: string[] = [];
  if (group.naics.length === 0) problems.push("Choose at least one NAICS code.");
  if (group.coverageId === "") problems.push("Choose a coverage.");
  if (group.exposureRangeLow.trim() === "" || group.exposureRangeHigh.trim() === "")
    problems.push("Enter the exposure range (both ends).");
  return problems;
}

/** Inputs given but wrong: each is marked on its own field, not answered with the onboarding card. */
export function invalidInputs(group: PeerGroup): string[] {
  const problems: string[] = [];
  if (group.naics.some((code) => !/^\d{2,3}$/.test(code))) problems.push("NAICS codes have 2 or 3 digits.");
  if (group.coverageId !== "" && !/^\d+$/.test(group.coverageId)) problems.push("A coverage id is a number.");
  for (const end of [group.exposureRangeLow, group.exposureRangeHigh])
    if (end.trim() !== "" && !isAmount(end)) problems.push(`The exposure range's “${end}” is not an amount.`);
  if (isRangeReversed(group)) problems.push("The exposure range's low end is above its high end.");
  if (group.newestTrailing >= group.oldestTrailing)
    problems.push("The window's newest end must be more recent than its oldest end.");
  for (const [name, value] of [
    ["limit", group.limit],
    ["premium", group.premium],
    ["retention", group.retention],
  ] as const) {
    if (value !== "" && !isAmount(value))
      problems.push(`The client's ${name} must be an amount in dollars, up to 2 decimals.`);
  }
  if (isAmount(group.limit) && Number(group.limit) === 0) problems.push("The client's limit must be more than $0.");
  return problems;
}

/**
 * The group with the panels' own settings (the trend's periods, the loss experience's
 * years and other limits) at their defaults: what a request that takes none of them
 * keys on, so switching one asks for nothing else again.
 */
export const withoutPanelSettings = (group: PeerGroup): PeerGroup => ({
  ...group,
  periodMonths: DEFAULT_PERIOD_MONTHS,
  years: DEFAULT_LOSS_YEARS,
  otherLimits: [],
});

/**
 * The group as the calls that take neither the window nor the client see it (the market
 * trend, the loss experience): without the panels' settings, the company, the client's
 * amounts or the window, so that none of these asks for them again.
 */
export const withoutClientOrWindow = (group: PeerGroup): PeerGroup => ({
  ...withoutPanelSettings(group),
  companyId: "",
  amountsCoverageId: "",
  limit: "",
  premium: "",
  retention: "",
  oldestTrailing: DEFAULT_OLDEST,
  newestTrailing: DEFAULT_NEWEST,
});

/** True when the trailing window is the default one (24 months back to today). */
export const isDefaultWindow = (group: PeerGroup) =>
  group.oldestTrailing === DEFAULT_OLDEST && group.newestTrailing === DEFAULT_NEWEST;
