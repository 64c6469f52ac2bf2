import type { AdmissionGate } from "../load-control/admission-gate.js";
import type { AnswerCache } from "../load-control/answer-cache.js";
import type { DisclosureGuard } from "../services/disclosure-guard.js";

/** What the app (create-app.ts) hands to the metrics: the parts it makes itself. */
export interface AppMetrics {
  /** Reads the answer cache's and the gate's counts at every scrape. Once per app. */
  watch(parts: { answerCache: AnswerCache; gate: AdmissionGate; disclosure: DisclosureGuard }): void;
}
