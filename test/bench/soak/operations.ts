import type { PeerClass } from "../peer/classes.js";
import { centsText, type JsonValue } from "../peer/decimal-text.js";
import {
  API_BASE,
  decimal,
  OPERATIONS,
  peerGroup,
  peerQuery,
  post,
  type ApiCall,
  type Variant,
} from "../peer/operations.js";

/** What one request of the soak is made of; each operation takes the part it needs. */
export interface RequestInputs {
  peerClass: PeerClass;
  variant: Variant;
  /** An id the database holds (sampled from it). */
  companyId: number;
  lossEventId: number;
  /** The first word of a company name the database holds. */
  nameWord: string;
  /** A small whole number that varies a request's shape: search kind and page, loss years. */
  shape: number;
}

/** One REST operation of the v2.0 API (spec section 4). */
export interface SoakOperation {
  name: string;
  call(inputs: RequestInputs): ApiCall;
}

const get = (path: string, query?: Record<string, string>): ApiCall => ({
  method: "GET",
  path: `${API_BASE}/${path}${query ? `?${new URLSearchParams(query)}` : ""}`,
});

/** Spec 4.8's GET form, with its capitalized names, on either of the two paths it shows. */
function limitAdequacyQuery(path: string, c: PeerClass, v: Variant): ApiCall {
  return get(path, {
    Naics: c.naics.join(","),
    CoverageId: String(c.coverageId),
    LobId: c.lineOfBusinessId.join(","),
    ExposureType: "Revenues",
    ExposureRangeLow: centsText(c.exposureRangeLow),
    ExposureRangeHigh: centsText(v.exposureRangeHigh),
    ClientLimit: centsText(v.clientLimit),
  });
}

/** No loss-year filter, one year, a range (spec 2.3), in turn. */
function lossYears(shape: number): Record<string, JsonValue> {
  return [{}, { lossYear: 2024 }, { oldestLossYear: 2020, newestLossYear: 2025 }][shape % 3]!;
}

/** OData text literal: a quote is doubled. */
const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The shapes callers search by (spec 4.6): a name's start or part, a type paged through, an id range. */
function searchQuery({ nameWord, companyId, shape }: RequestInputs): Record<string, string> {
  switch (shape % 4) {
    case 0:
      return { $filter: `startswith(CompanyName, ${quoted(nameWord)})`, $top: "10" };
    case 1:
      return { $filter: `contains(CompanyName, ${quoted(nameWord)})`, $top: "10" };
    case 2:
      return {
        $filter: "OrganizationType eq 'PUB'",
        $orderBy: "CompanyName",
        $skip: String((shape % 50) * 10),
        $top: "10",
      };
    default:
      return { $filter: `Id ge ${companyId} and Id lt ${companyId + 100}`, $orderBy: "Id", $top: "100" };
  }
}

/**
 * Every v2.0 REST operation: the five of the peer benchmark (peer/operations.ts) and
 * the rest of spec section 4, both paths of GET limit adequacy counted apart.
 */
export const SOAK_OPERATIONS: readonly SoakOperation[] = [
  ...OPERATIONS.map((o): SoakOperation => ({ name: o.name, call: (i) => o.call(i.peerClass, i.variant) })),
  {
    name: "GET RPM",
    call: ({ peerClass: c, variant: v }) =>
      get("assessment/getrpmdistributiondata", {
        ...peerQuery(c, v),
        premium: centsText(v.premium),
        limit: centsText(v.limit),
      }),
  },
  {
    name: "POST total loss count",
    call: ({ peerClass: c, variant: v, shape }) =>
      post("assessment/getTotalLossCount", {
        ...peerGroup(c, v),
        organizationType: [],
        premium: decimal(v.premium),
        ...lossYears(shape),
      }),
  },
  {
    name: "GET limit adequacy",
    call: ({ peerClass: c, variant: v }) => limitAdequacyQuery("lossdetails/limitadequacy", c, v),
  },
  {
    name: "GET limit adequacy (alt path)",
    call: ({ peerClass: c, variant: v }) => limitAdequacyQuery("lossdetails/getlimitadequacydata", c, v),
  },
  { name: "GET company", call: ({ companyId }) => get(`company/${companyId}`) },
  { name: "GET company search", call: (inputs) => get("company", searchQuery(inputs)) },
  { name: "GET loss details", call: ({ lossEventId }) => get(`lossdetails/${lossEventId}`) },
];
