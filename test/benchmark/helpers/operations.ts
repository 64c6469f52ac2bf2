import { getAssessment, postAssessment } from "../reference/assessment.js";
import { totalLossCount, totalProgramCount } from "../reference/counts.js";
import { limitAdequacy } from "../reference/limit-adequacy.js";
import { lossExperience } from "../reference/loss-experience.js";
import type { ReferenceDataset, ReferenceRequest } from "../reference/model-types.js";
import { rpmDistribution } from "../reference/rpm.js";
import { marketTrend } from "../reference/trend.js";
import { suggestPeerGroups } from "../reference/suggestions.js";
import type { InputSet } from "./wire-request.js";

const PREFIX = "/commercialpolicybenchmark/v2.0";

/** One REST operation of the analytics (spec 4.1-4.4, 4.8) and its reference answer. */
export interface AnalyticsOperation {
  name: string;
  method: "GET" | "POST";
  path: string;
  inputs: InputSet;
  /** Inputs the operation does not take, sent now and then: they must be ignored. */
  ignored: Record<string, number>;
  expected(dataset: ReferenceDataset, request: ReferenceRequest, asOf: string): unknown;
}

const plain = { trailing: false, lossYears: false, limitAdequacyNames: false };

export const ANALYTICS_OPERATIONS: readonly AnalyticsOperation[] = [
  {
    name: "GET assessment",
    method: "GET",
    path: `${PREFIX}/assessment/getassessmentdata`,
    inputs: { ...plain, amounts: ["premium", "limit", "retention"], trailing: true },
    ignored: { lossYear: 2024 },
    expected: getAssessment,
  },
  {
    name: "POST assessment",
    method: "POST",
    path: `${PREFIX}/assessment/getassessmentdata`,
    inputs: { ...plain, amounts: ["premium", "limit", "retention"], trailing: true },
    ignored: { lossYear: 2024 },
    expected: postAssessment,
  },
  {
    name: "GET RPM",
    method: "GET",
    path: `${PREFIX}/assessment/getrpmdistributiondata`,
    inputs: { ...plain, amounts: ["premium", "limit"], trailing: true },
    ignored: { retention: 5000 },
    expected: rpmDistribution,
  },
  {
    name: "POST RPM",
    method: "POST",
    path: `${PREFIX}/assessment/getrpmdistributiondata`,
    inputs: { ...plain, amounts: ["premium", "limit"], trailing: true },
    ignored: { retention: 5000 },
    expected: rpmDistribution,
  },
  {
    name: "POST total program count",
    method: "POST",
    path: `${PREFIX}/assessment/getTotalProgramCount`,
    inputs: { ...plain, amounts: ["premium", "limit"], trailing: true },
    ignored: { lossYear: 2024 },
    expected: totalProgramCount,
  },
  {
    name: "POST total loss count",
    method: "POST",
    path: `${PREFIX}/assessment/getTotalLossCount`,
    inputs: { ...plain, amounts: ["premium", "limit"], lossYears: true },
    ignored: { oldestTrailing: 6 },
    expected: (dataset, request) => totalLossCount(dataset, request),
  },
  {
    name: "GET limit adequacy (limitadequacy)",
    method: "GET",
    path: `${PREFIX}/lossdetails/limitadequacy`,
    inputs: { ...plain, amounts: ["clientLimit", "limit"], limitAdequacyNames: true },
    ignored: { oldestTrailing: 6, newestTrailing: 3, lossYear: 2024 },
    expected: (dataset, request, asOf) => limitAdequacy(dataset, request, asOf, "none"),
  },
  {
    name: "GET limit adequacy (getlimitadequacydata)",
    method: "GET",
    path: `${PREFIX}/lossdetails/getlimitadequacydata`,
    inputs: { ...plain, amounts: ["clientLimit", "limit"], limitAdequacyNames: true },
    ignored: { oldestTrailing: 12, newestTrailing: 6, oldestLossYear: 2025 },
    expected: (dataset, request, asOf) => limitAdequacy(dataset, request, asOf, "none"),
  },
  {
    name: "POST limit adequacy",
    method: "POST",
    path: `${PREFIX}/lossdetails/getlimitadequacydata`,
    inputs: { ...plain, amounts: ["clientLimit", "limit"], lossYears: true },
    ignored: { oldestTrailing: 3 },
    expected: (dataset, request, asOf) => limitAdequacy(dataset, request, asOf, "filter"),
  },
  {
    name: "GET market trend",
    method: "GET",
    path: `${PREFIX}/trend/getmarkettrend`,
    inputs: { ...plain, amounts: [], trend: true },
    ignored: { oldestTrailing: 6, limit: 5000 },
    expected: (dataset, request, asOf) => marketTrend(dataset, request, asOf),
  },
  {
    name: "POST market trend",
    method: "POST",
    path: `${PREFIX}/trend/getmarkettrend`,
    inputs: { ...plain, amounts: [], trend: true },
    ignored: { newestTrailing: 3, premium: 1000, lossYear: 2024 },
    expected: (dataset, request, asOf) => marketTrend(dataset, request, asOf),
  },
  {
    name: "GET loss experience",
    method: "GET",
    path: `${PREFIX}/lossdetails/getlossexperience`,
    inputs: { ...plain, amounts: [], lossExperience: true },
    ignored: { oldestTrailing: 6, lossYear: 2024, clientLimit: 5000 },
    expected: (dataset, request, asOf) => lossExperience(dataset, request, asOf),
  },
  {
    name: "POST loss experience",
    method: "POST",
    path: `${PREFIX}/lossdetails/getlossexperience`,
    inputs: { ...plain, amounts: [], lossExperience: true },
    ignored: { newestTrailing: 3, oldestLossYear: 2030, limit: 5000, premium: 1000 },
    expected: (dataset, request, asOf) => lossExperience(dataset, request, asOf),
  },
  {
    name: "GET peer-group suggestions",
    method: "GET",
    path: `${PREFIX}/peergroup/suggestpeergroups`,
    inputs: { ...plain, amounts: [], trailing: true, suggestionBounds: true },
    ignored: { lossYear: 2024, premium: 5000 },
    expected: (dataset, request, asOf) => suggestPeerGroups(dataset, request, asOf),
  },
  {
    name: "POST peer-group suggestions",
    method: "POST",
    path: `${PREFIX}/peergroup/suggestpeergroups`,
    inputs: { ...plain, amounts: [], trailing: true, suggestionBounds: true },
    ignored: { retention: 5000 },
    expected: (dataset, request, asOf) => suggestPeerGroups(dataset, request, asOf),
  },
];
