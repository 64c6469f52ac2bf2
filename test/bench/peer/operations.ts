import type { ClassName, PeerClass } from "./classes.js";
import { centsText, jsonText, type Cents, type JsonValue } from "./decimal-text.js";

export const API_BASE = "/commercialpolicybenchmark/v2.0";

export type OperationName =
  | "POST assessment"
  | "POST RPM"
  | "POST total program count"
  | "POST limit adequacy"
  | "GET assessment"
  | "POST market trend"
  | "POST suggestions"
  | "POST loss experience";

/** What varies from one request of a class to the next. */
export interface Variant {
  exposureRangeHigh: Cents;
  premium: Cents;
  limit: Cents;
  retention: Cents;
  clientLimit: Cents;
}

/** One HTTP request, ready to send: path with its query, and the exact body bytes. */
export interface ApiCall {
  method: "GET" | "POST";
  path: string;
  body?: string;
}

export interface Operation {
  name: OperationName;
  call(peerClass: PeerClass, variant: Variant): ApiCall;
  /** Its own cold p95 limit in ms, where the class's does not apply (issue 30: suggestions ≤ 25 ms at every class). */
  limitMs?: number;
  /** The total program count an answer states, when it states one. */
  programCount?(answer: string): number;
  /** The classes it is measured at, when not every class; with its own cold p95 limits there. */
  only?: Partial<Record<ClassName, { limitMs: number }>>;
}

/** Whether the operation is measured at the class. */
export const measuredAt = (operation: Operation, peerClass: PeerClass): boolean =>
  !operation.only || peerClass.name in operation.only;

/** The cold p95 limit of the operation at the class, before the allowance for the answer's size. */
export const coldLimitMs = (operation: Operation, peerClass: PeerClass): number =>
  operation.only?.[peerClass.name]?.limitMs ?? operation.limitMs ?? peerClass.limitMs;

export const decimal = (cents: Cents): JsonValue => ({ decimal: centsText(cents) });

/** The peer-group fields of every JSON body (spec 2.1). */
export function peerGroup(c: PeerClass, v: Variant): Record<string, JsonValue> {
  return {
    naics: c.naics,
    coverageId: c.coverageId,
    lineOfBusinessId: c.lineOfBusinessId,
    exposureType: "Revenues",
    exposureRangeLow: decimal(c.exposureRangeLow),
    exposureRangeHigh: decimal(v.exposureRangeHigh),
  };
}

/** The peer-group fields of every GET query (spec 4.1, 4.2). */
export function peerQuery(c: PeerClass, v: Variant): Record<string, string> {
  return {
    naics: c.naics.join(","),
    coverageId: String(c.coverageId),
    lineOfBusinessId: c.lineOfBusinessId.join(","),
    exposureType: "Revenues",
    exposureRangeLow: centsText(c.exposureRangeLow),
    exposureRangeHigh: centsText(v.exposureRangeHigh),
  };
}

export const post = (path: string, fields: Record<string, JsonValue>): ApiCall => ({
  method: "POST",
  path: `${API_BASE}/${path}`,
  body: jsonText(fields),
});

/**
 * The five operations of CONVENTIONS.md, Performance measurement, in report order, then
 * the market trend and the peer-group suggestions of issue 30, and the loss experience
 * of issue 52.
 */
export const OPERATIONS: readonly Operation[] = [
  {
    name: "POST assessment",
    call: (c, v) =>
      post("assessment/getassessmentdata", {
        ...peerGroup(c, v),
        organizationType: [],
        premium: decimal(v.premium),
        limit: decimal(v.limit),
        retention: decimal(v.retention),
      }),
  },
  {
    name: "POST RPM",
    call: (c, v) =>
      post("assessment/getrpmdistributiondata", {
        ...peerGroup(c, v),
        organizationType: [],
        premium: decimal(v.premium),
        limit: decimal(v.limit),
      }),
  },
  {
    name: "POST total program count",
    call: (c, v) => post("assessment/getTotalProgramCount", { ...peerGroup(c, v), organizationType: [] }),
    programCount: (answer) => Number(JSON.parse(answer)),
  },
  {
    name: "POST limit adequacy",
    call: (c, v) =>
      post("lossdetails/getlimitadequacydata", { ...peerGroup(c, v), clientLimit: decimal(v.clientLimit) }),
  },
  {
    name: "GET assessment",
    call: (c, v) => {
      const query = new URLSearchParams({
        ...peerQuery(c, v),
        premium: centsText(v.premium),
        limit: centsText(v.limit),
        retention: centsText(v.retention),
      });
      return { method: "GET", path: `${API_BASE}/assessment/getassessmentdata?${query}` };
    },
    programCount: (answer) => (JSON.parse(answer) as { totalProgramCount: number }).totalProgramCount,
  },
  {
    // Issue 30: the broadest group at 12 x 3-month periods, within 15 ms p95 (SEMANTICS.md section 13).
    name: "POST market trend",
    call: (c, v) =>
      post("trend/getmarkettrend", { ...peerGroup(c, v), organizationType: [], periodMonths: 3, periods: 12 }),
    only: { broadest: { limitMs: 15 } },
  },
  {
    // Issue 52: the broadest group over 20 years with 3 limits (the client's and two it
    // weighs), within 15 ms p95 (SEMANTICS.md section 15).
    name: "POST loss experience",
    call: (c, v) =>
      post("lossdetails/getlossexperience", {
        ...peerGroup(c, v),
        organizationType: [],
        years: 20,
        limits: [decimal(v.clientLimit), decimal(v.limit), decimal(v.limit * 2n)],
      }),
    only: { broadest: { limitMs: 15 } },
  },
  {
    // SEMANTICS.md section 14 with its defaults: the 64 widenings counted from one scan of the widest.
    name: "POST suggestions",
    call: (c, v) => post("peergroup/suggestpeergroups", { ...peerGroup(c, v), organizationType: [] }),
    limitMs: 25,
    programCount: (answer) => (JSON.parse(answer) as { original: { programCount: number } }).original.programCount,
  },
];

export function operationNamed(name: OperationName): Operation {
  const operation = OPERATIONS.find((o) => o.name === name);
  if (!operation) throw new Error(`no operation ${name}`);
  return operation;
}
