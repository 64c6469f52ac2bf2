import { Decimal } from "decimal.js";
import type { CsvRow, ReferenceDataset, ReferenceRequest } from "./model-types.js";
import { peerPrograms } from "./peer-rows.js";
import { trailingMonths } from "./time-window.js";

/**
 * Peer-group suggestions (SEMANTICS.md section 14), read literally: every candidate
 * group is built as a request of its own and its programs selected from scratch
 * (no shared scan, no widening codes), then qualified, pruned and ordered as the
 * section says.
 */

type Move = "naics" | "exposure" | "lineOfBusiness" | "organizationType" | "window";

interface Candidate {
  moves: Move[];
  request: ReferenceRequest;
}

export interface ReferenceSuggestions {
  original: { programCount: number | null; companyCount: number | null; meets: boolean };
  suggestions: { moves: Move[]; programCount: number; companyCount: number; peerGroup: Record<string, unknown> }[];
}

const EXPOSURE_NAMES = { Revenues: "Revenues", Employees: "Employees", "Market Cap": "Market Cap" } as const;

const everyLine = (request: ReferenceRequest) =>
  request.lineOfBusinessId.length === 0 || request.lineOfBusinessId.includes(0);
const everyType = (request: ReferenceRequest) =>
  request.organizationType.length === 0 || request.organizationType.some((type) => type.toUpperCase() === "ALL");
const cents = (text: string) => new Decimal(text).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The candidates: any of the four single moves the group allows, plus 0 to 3 exposure moves, at least one move. */
function candidates(request: ReferenceRequest): Candidate[] {
  const { oldest, newest } = trailingMonths(request.oldestTrailing, request.newestTrailing);
  const singles: Move[] = [];
  if (request.naics.some((code) => code.length === 3)) singles.push("naics");
  if (!everyLine(request)) singles.push("lineOfBusiness");
  if (!everyType(request)) singles.push("organizationType");
  if (oldest !== 24 || newest !== 0) singles.push("window");
  const out: Candidate[] = [];
  for (let subset = 0; subset < 1 << singles.length; subset++) {
    const chosen = singles.filter((_, i) => subset & (1 << i));
    for (let steps = 0; steps <= 3; steps++) {
      if (chosen.length + steps === 0) continue;
      const moves = (["naics", "exposure", "lineOfBusiness", "organizationType", "window"] as Move[]).flatMap((move) =>
        move === "exposure" ? Array<Move>(steps).fill("exposure") : chosen.includes(move) ? [move] : [],
      );
      out.push({ moves, request: widen(request, moves) });
    }
  }
  return out;
}

function widen(request: ReferenceRequest, moves: Move[]): ReferenceRequest {
  let low = cents(request.exposureRangeLow);
  let high = cents(request.exposureRangeHigh);
  for (const move of moves) {
    if (move !== "exposure") continue;
    low = low.div(2).toDecimalPlaces(2, Decimal.ROUND_DOWN);
    high = high.times(2);
  }
  return {
    ...request,
    naics: moves.includes("naics")
      ? [...new Set(request.naics.map((code) => code.slice(0, 2)))].sort(textOrder)
      : request.naics,
    exposureRangeLow: low.toFixed(),
    exposureRangeHigh: high.toFixed(),
    lineOfBusinessId: moves.includes("lineOfBusiness") ? [0] : request.lineOfBusinessId,
    organizationType: moves.includes("organizationType") ? [] : request.organizationType,
    oldestTrailing: moves.includes("window") ? null : request.oldestTrailing,
    newestTrailing: moves.includes("window") ? null : request.newestTrailing,
  };
}

/** The group in the POST assessment's names, spelled as the service spells it: codes sorted, every LOB [0], every type []. */
function peerGroupOf(request: ReferenceRequest): Record<string, unknown> {
  const { oldest, newest } = trailingMonths(request.oldestTrailing, request.newestTrailing);
  return {
    naics: [...new Set(request.naics)].sort(textOrder),
    coverageId: request.coverageId,
    lineOfBusinessId: everyLine(request) ? [0] : [...new Set(request.lineOfBusinessId)].sort((a, b) => a - b),
    exposureType: EXPOSURE_NAMES[request.exposureType],
    exposureRangeLow: Number(cents(request.exposureRangeLow).toFixed()),
    exposureRangeHigh: Number(cents(request.exposureRangeHigh).toFixed()),
    organizationType: everyType(request)
      ? []
      : [...new Set(request.organizationType.map((type) => type.toUpperCase()))].sort(textOrder),
    oldestTrailing: oldest,
    newestTrailing: newest,
  };
}

const companiesOf = (programs: CsvRow[]) =>
  new Set(programs.map((program) => String(BigInt(program.company_id ?? "")))).size;

/**
 * The answer of section 14. `refused` says whether the rule refuses a set of programs
 * (the program-count set of section 12); absent under DISCLOSURE_RULE=none.
 */
export function suggestPeerGroups(
  dataset: ReferenceDataset,
  request: ReferenceRequest,
  asOf: string,
  refused: (programs: CsvRow[]) => boolean = () => false,
): ReferenceSuggestions {
  const minPrograms = request.minPrograms ?? 30;
  const maxSuggestions = request.maxSuggestions ?? 3;
  const own = peerPrograms(dataset, request, asOf, "request");
  const ownRefused = refused(own);
  const qualifying = candidates(request)
    .map((candidate) => ({ ...candidate, programs: peerPrograms(dataset, candidate.request, asOf, "request") }))
    .filter(({ programs }) => programs.length >= minPrograms && !refused(programs));
  const isSubset = (small: Move[], large: Move[]) => {
    const count = (moves: Move[], move: Move) => moves.filter((m) => m === move).length;
    return small.length < large.length && small.every((move) => count(small, move) <= count(large, move));
  };
  const kept = qualifying.filter((candidate) => !qualifying.some((other) => isSubset(other.moves, candidate.moves)));
  kept.sort(
    (a, b) =>
      a.moves.length - b.moves.length ||
      a.programs.length - b.programs.length ||
      textOrder(a.moves.join(","), b.moves.join(",")),
  );
  return {
    original: {
      programCount: ownRefused ? null : own.length,
      companyCount: ownRefused ? null : companiesOf(own),
      meets: own.length >= minPrograms && !ownRefused,
    },
    suggestions: kept.slice(0, maxSuggestions).map(({ moves, programs, request: widened }) => ({
      moves,
      programCount: programs.length,
      companyCount: companiesOf(programs),
      peerGroup: peerGroupOf(widened),
    })),
  };
}
