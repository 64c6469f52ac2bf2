import type { ReferenceDataset, ReferenceRequest } from "./model-types.js";
import { peerLosses, peerPrograms } from "./peer-rows.js";

/** totalProgramCount (SEMANTICS.md section 8): peer-group programs in the window. */
export function totalProgramCount(dataset: ReferenceDataset, request: ReferenceRequest, asOf: string): number {
  return peerPrograms(dataset, request, asOf, "request").length;
}

/** totalLossCount: peer-group loss events passing the loss-year filter. */
export function totalLossCount(dataset: ReferenceDataset, request: ReferenceRequest): number {
  return peerLosses(dataset, request, "filter").length;
}
