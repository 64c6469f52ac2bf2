import type { HandlerContext } from "@connectrpc/connect";
import { FieldProblems } from "../benchmark/field-problems.js";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { checkCoverageReference, type CoverageReference, type PeerGroupInput } from "../benchmark/peer-group.js";
import { invalidArgument, takeBindingProblems, type InputProblem } from "../rpc/input-problems.js";
import { listLimitProblems } from "../rpc/list-limits.js";
import { tellDatasetVersion } from "../rpc/dataset-version.js";

// Problems are listed in the order of the spec's fields, whatever found them.
const FIELD_ORDER = [
  "naics",
  "coverageId",
  "lineOfBusinessId",
  "exposureType",
  "exposureRangeLow",
  "exposureRangeHigh",
  "organizationType",
  "premium",
  "limit",
  "retention",
  "clientLimit",
  "oldestTrailing",
  "newestTrailing",
  "lossYear",
  "oldestLossYear",
  "newestLossYear",
  "periodMonths",
  "periods",
  "minPrograms",
  "maxSuggestions",
  "years",
  "limits",
];

/**
 * The problems of a call so far: what the transport could not read, and lists over
 * their limit (list-limits.ts), which the rules then leave unread.
 */
export function startValidation(ctx: HandlerContext, req: object): FieldProblems<InputProblem> {
  return new FieldProblems([...takeBindingProblems(ctx), ...listLimitProblems(ctx.method.input, req)]);
}

/**
 * Rejects a request with every problem at once, the coverage reference included
 * (an unknown coverage is a problem too, even next to others), so one 400 lists them all.
 */
export async function rejectInput(
  engine: PeerEngine,
  input: Pick<PeerGroupInput, "coverageId" | "lineOfBusinessId">,
  problems: FieldProblems<InputProblem>,
): Promise<never> {
  if (input.coverageId !== undefined && problems.usable("coverageId")) {
    checkCoverageReference(input, await engine.coverageReference(input.coverageId), problems);
  }
  throw invalidArgument(ordered(problems.list));
}

/**
 * Checks the coverage reference that came back with the figures, and throws when it is
 * broken; else the answer says which dataset version the figures were read from.
 */
export function assertCoverageReference(
  ctx: HandlerContext,
  input: Pick<PeerGroupInput, "coverageId" | "lineOfBusinessId">,
  reference: CoverageReference,
  problems: FieldProblems<InputProblem>,
): void {
  checkCoverageReference(input, reference, problems);
  if (!problems.empty) throw invalidArgument(ordered(problems.list));
  tellDatasetVersion(ctx, reference.datasetVersion);
}

function ordered(problems: readonly InputProblem[]): InputProblem[] {
  const rank = (field: string) => {
    const index = FIELD_ORDER.indexOf(field);
    return index === -1 ? FIELD_ORDER.length : index;
  };
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p.field) - rank(b.p.field) || a.i - b.i)
    .map(({ p }) => p);
}
