import { DEFAULT_NEWEST, DEFAULT_OLDEST, TREND_PERIODS, type PeerGroup } from "../state/peer-group.js";
import type { ApiClient, QueryValue } from "./client.js";
import type {
  Answer,
  Assessment,
  Company,
  CompanyPage,
  LimitAdequacy,
  LossExperience,
  MarketTrend,
  PeerGroupSuggestions,
  ReferenceData,
  Rpm,
} from "./types.js";

/** Lists go as comma lists (SEMANTICS.md 11); an empty LOB list is "0" (every LOB), an empty organization list "All". */
function peerQuery(group: PeerGroup): Record<string, QueryValue> {
  return {
    naics: group.naics.join(","),
    coverageId: group.coverageId,
    lineOfBusinessId: group.lineOfBusinessId.length ? group.lineOfBusinessId.join(",") : "0",
    exposureType: group.exposureType,
    exposureRangeLow: group.exposureRangeLow,
    exposureRangeHigh: group.exposureRangeHigh,
    organizationType: group.organizationType.length ? group.organizationType.join(",") : "All",
  };
}

/** The GET forms take the window as query parameters too (SEMANTICS.md 2); the default is left out. */
function windowQuery(group: PeerGroup): Record<string, QueryValue> {
  return {
    oldestTrailing: group.oldestTrailing === DEFAULT_OLDEST ? undefined : group.oldestTrailing,
    newestTrailing: group.newestTrailing === DEFAULT_NEWEST ? undefined : group.newestTrailing,
  };
}

/** The GET form: the only one with both counts beside the three distributions (spec 2.5). */
export function getAssessment(api: ApiClient, group: PeerGroup, signal?: AbortSignal): Promise<Answer<Assessment>> {
  return api.get(
    "/assessment/getassessmentdata",
    {
      ...peerQuery(group),
      ...windowQuery(group),
      limit: group.limit,
      premium: group.premium,
      retention: group.retention,
    },
    signal,
  );
}

export function getRpm(api: ApiClient, group: PeerGroup, signal?: AbortSignal): Promise<Answer<Rpm>> {
  return api.get(
    "/assessment/getrpmdistributiondata",
    { ...peerQuery(group), ...windowQuery(group), limit: group.limit, premium: group.premium },
    signal,
  );
}

/** Limit adequacy takes no window: its median limit always rests on the default 24 months (SEMANTICS.md 2, 9). */
export function getLimitAdequacy(
  api: ApiClient,
  group: PeerGroup,
  signal?: AbortSignal,
): Promise<Answer<LimitAdequacy>> {
  const q = peerQuery(group);
  return api.get(
    "/lossdetails/limitadequacy",
    {
      Naics: q.naics,
      CoverageId: q.coverageId,
      LobId: q.lineOfBusinessId,
      ExposureType: q.exposureType,
      ExposureRangeLow: q.exposureRangeLow,
      ExposureRangeHigh: q.exposureRangeHigh,
      OrganizationType: q.organizationType,
      ClientLimit: group.limit || undefined,
    },
    signal,
  );
}

/** The program count in the default window: what limit adequacy's median limit rests on when the broker chose another window. */
export function getDefaultWindowProgramCount(
  api: ApiClient,
  group: PeerGroup,
  signal?: AbortSignal,
): Promise<Answer<number>> {
  const q = peerQuery(group);
  return api.post(
    "/assessment/getTotalProgramCount",
    {
      naics: group.naics,
      coverageId: Number(group.coverageId),
      lineOfBusinessId: group.lineOfBusinessId.length ? group.lineOfBusinessId.map(Number) : [0],
      exposureType: q.exposureType,
      exposureRangeLow: group.exposureRangeLow,
      exposureRangeHigh: group.exposureRangeHigh,
      organizationType: group.organizationType.length ? group.organizationType : ["All"],
    },
    signal,
  );
}

/** The market trend takes the group without its window or the client's amounts (SEMANTICS.md 13). */
export function getMarketTrend(api: ApiClient, group: PeerGroup, signal?: AbortSignal): Promise<Answer<MarketTrend>> {
  return api.get(
    "/trend/getmarkettrend",
    { ...peerQuery(group), periodMonths: group.periodMonths, periods: TREND_PERIODS[group.periodMonths] },
    signal,
  );
}

/**
 * The loss experience (SEMANTICS.md 15) of the group without its window, over `years`
 * calendar years, with the paid losses above each of `limits` (decimal text, at most 3).
 */
export function getLossExperience(
  api: ApiClient,
  group: PeerGroup,
  limits: readonly string[],
  signal?: AbortSignal,
): Promise<Answer<LossExperience>> {
  return api.get(
    "/lossdetails/getlossexperience",
    { ...peerQuery(group), years: group.years, limits: limits.join(",") || undefined },
    signal,
  );
}

/**
 * Wider groups of at least `minPrograms` programs that pass the disclosure rule (SEMANTICS.md 14).
 * The client's amounts are not sent: a suggestion is about the group, never the client.
 */
export function suggestPeerGroups(
  api: ApiClient,
  group: PeerGroup,
  minPrograms: number,
  signal?: AbortSignal,
): Promise<Answer<PeerGroupSuggestions>> {
  return api.get(
    "/peergroup/suggestpeergroups",
    { ...peerQuery(group), ...windowQuery(group), minPrograms, maxSuggestions: 3 },
    signal,
  );
}

/** OData string literal: a quote is doubled (SEMANTICS.md 10). */
const odataString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Companies whose name holds every word typed, anywhere ("Campbell" finds "Abbott &
 * Campbell Corp."): one OData `contains` per word, case-insensitive (SEMANTICS.md 10).
 */
export function companySearchFilter(text: string): string {
  return words(text)
    .map((word) => `contains(CompanyName,${odataString(word)})`)
    .join(" and ");
}

const words = (text: string) =>
  text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");

/** What may stand before a word inside a name: `Crescent "Gold Star" Staffing`, `Smith-Jones`, `Acme (US)`. */
const WORD_BREAKS = [" ", '"', "-", "(", "/", "&"];

/**
 * Companies each of whose typed words starts a word of the name ("crescent fin" finds
 * "Crescent Financial" but not "Crescent Staffing", whose "fin" is inside a word).
 */
export function companyWordStartFilter(text: string): string {
  return words(text)
    .map((word) => {
      const starts = [
        `startswith(CompanyName,${odataString(word)})`,
        ...WORD_BREAKS.map((mark) => `contains(CompanyName,${odataString(mark + word)})`),
      ];
      return `(${starts.join(" or ")})`;
    })
    .join(" and ");
}

/**
 * A page of the companies whose name holds every word typed, those whose words start
 * with the typed words first (issue 50: "crescent fin" ranked `Crescent "Gold Star"
 * Staffing` first, so ArrowDown then Enter picked the wrong client). Two searches, paged
 * one after the other: the word starts, then the rest of the `contains` hits.
 */
export async function searchCompanies(
  api: ApiClient,
  text: string,
  top: number,
  skip: number,
  signal?: AbortSignal,
): Promise<Answer<CompanyPage>> {
  const starts = companyWordStartFilter(text);
  const first = await api.get<CompanyPage>(
    "/company",
    { $filter: starts, $top: top, $skip: skip || undefined },
    signal,
  );
  const firstTotal = first.data.totalCount;
  const room = top - first.data.data.length;
  const rest = await api.get<CompanyPage>(
    "/company",
    {
      $filter: `${companySearchFilter(text)} and not (${starts})`,
      $top: room,
      $skip: Math.max(0, skip - firstTotal) || undefined,
    },
    signal,
  );
  return {
    ...first,
    data: {
      data: [...first.data.data, ...rest.data.data],
      totalCount: firstTotal + rest.data.totalCount,
      hasMoreResults: skip + top < firstTotal + rest.data.totalCount,
    },
  };
}

export function getCompany(api: ApiClient, id: number | string, signal?: AbortSignal): Promise<Answer<Company>> {
  return api.get(`/company/${encodeURIComponent(String(id))}`, {}, signal);
}

export function getReferenceData(api: ApiClient, signal?: AbortSignal): Promise<Answer<ReferenceData>> {
  return api.get("/reference/getreferencedata", {}, signal);
}
