import { passesLossYears } from "./loss-years.js";
import type { CsvRow, ReferenceDataset, ReferenceRequest } from "./model-types.js";
import { matchingCompanyIds, rowInPeerGroup } from "./peer-group.js";
import { inWindow, timeWindow } from "./time-window.js";

/**
 * The peer-group programs in the window (SEMANTICS.md sections 1 and 2). `window`
 * "request" uses the request's trailing inputs; "default" uses O = 24, N = 0.
 */
export function peerPrograms(
  dataset: ReferenceDataset,
  request: ReferenceRequest,
  asOf: string,
  window: "request" | "default",
): CsvRow[] {
  const ids = matchingCompanyIds(dataset.companies, request);
  const bounds =
    window === "request"
      ? timeWindow(asOf, request.oldestTrailing, request.newestTrailing)
      : timeWindow(asOf, null, null);
  return dataset.programs.filter(
    (program) => rowInPeerGroup(program, ids, request) && inWindow(program.effective_date ?? "", bounds),
  );
}

/**
 * The peer-group loss events (SEMANTICS.md section 1), through the loss-year filter
 * of section 3 when `lossYears` is "filter", with no year filter when "none".
 */
export function peerLosses(
  dataset: ReferenceDataset,
  request: ReferenceRequest,
  lossYears: "filter" | "none",
): CsvRow[] {
  const ids = matchingCompanyIds(dataset.companies, request);
  return dataset.losses.filter(
    (loss) => rowInPeerGroup(loss, ids, request) && (lossYears === "none" || passesLossYears(loss, request)),
  );
}
