import { toNumber } from "./decimal.js";
import { disclosureRefusal, type DisclosureRule } from "./disclosure-rule.js";
import type { ExposureColumn } from "./exposure-type.js";
import type { Contributors } from "./peer-statistics.js";
import {
  byText,
  exposureMovesOf,
  LINE_MOVE,
  movesOf,
  NAICS_MOVE,
  ORGANIZATION_MOVE,
  possibleMoves,
  WIDENING_CODES,
  WINDOW_MOVE,
  withinWidening,
  type MoveName,
  type WideningSpace,
} from "./peer-group-widening.js";
import { DEFAULT_TRAILING } from "./time-window.js";

/** What an engine counts for each widening code (peer-group-widening.ts), from one scan. */
export interface WideningCounts {
  /** Programs in the window (SEMANTICS.md section 8), by code. */
  programs: ArrayLike<number>;
  /** Distinct companies among them, by code. */
  companies: ArrayLike<number>;
  /** Only when the engine counts them (the disclosure rule is on): who each code's programs came from. */
  contributors?: readonly Contributors[];
}

export interface SuggestionBounds {
  minPrograms: number;
  maxSuggestions: number;
}

/** Section 14's defaults and bounds of minPrograms and maxSuggestions. */
export const MIN_PROGRAMS = { default: 30, min: 1, max: 100_000 } as const;
export const MAX_SUGGESTIONS = { default: 3, min: 1, max: 10 } as const;

export interface Suggestion {
  code: number;
  moves: MoveName[];
  programCount: number;
  companyCount: number;
}

export interface Suggestions {
  /** Counts null when the rule refuses the group itself (section 14). */
  original: { programCount: number | null; companyCount: number | null; meets: boolean };
  suggestions: Suggestion[];
}

/**
 * The answer of section 14 from the counts of the 64 widenings: the candidates the
 * group allows, those that qualify (at least minPrograms programs and, under the
 * rule, programs that pass it: section 12, the program-count set), less those another
 * qualifying candidate's subset of moves already answers, ordered by cost, then
 * program count, then the move list as text; the first maxSuggestions.
 */
export function suggestPeerGroups(
  space: WideningSpace,
  trailing: { oldest: number; newest: number },
  counts: WideningCounts,
  bounds: SuggestionBounds,
  rule: DisclosureRule,
): Suggestions {
  const refused = (code: number) =>
    rule.kind !== "none" && disclosureRefusal(rule, "programs", contributorsOf(counts, code)) !== undefined;
  const qualifies = (code: number) => counts.programs[code]! >= bounds.minPrograms && !refused(code);
  const possible = possibleMoves(space.peers, trailing);
  const qualifying: number[] = [];
  for (let code = 1; code < WIDENING_CODES; code++) {
    const singles = code & (NAICS_MOVE | LINE_MOVE | ORGANIZATION_MOVE | WINDOW_MOVE);
    if ((singles & ~possible) === 0 && qualifies(code)) qualifying.push(code);
  }
  const kept = qualifying.filter(
    (code) => !qualifying.some((other) => other !== code && withinWidening(other, code) && cost(other) < cost(code)),
  );
  const suggestions = kept
    .map((code) => ({
      code,
      moves: movesOf(code),
      programCount: counts.programs[code]!,
      companyCount: counts.companies[code]!,
    }))
    .sort(
      (a, b) =>
        a.moves.length - b.moves.length ||
        a.programCount - b.programCount ||
        byText(a.moves.join(","), b.moves.join(",")),
    )
    .slice(0, bounds.maxSuggestions);
  const originalRefused = refused(0);
  return {
    original: {
      programCount: originalRefused ? null : counts.programs[0]!,
      companyCount: originalRefused ? null : counts.companies[0]!,
      meets: qualifies(0),
    },
    suggestions,
  };
}

const cost = (code: number) => movesOf(code).length;

function contributorsOf(counts: WideningCounts, code: number): Contributors {
  // Fail closed: an engine that did not count would offer groups unprotected.
  const contributors = counts.contributors?.[code];
  if (!contributors) throw new Error("the peer engine did not count the contributors of the widenings");
  return contributors;
}

const EXPOSURE_NAMES: Record<ExposureColumn, string> = {
  revenues: "Revenues",
  employees: "Employees",
  market_cap: "Market Cap",
};

/** A widened group in the POST assessment's JSON names (section 14): moved fields as the moves say, the rest as the request meant them. */
export interface SuggestedPeerGroup {
  naics: string[];
  coverageId: number;
  lineOfBusinessId: number[];
  exposureType: string;
  exposureRangeLow: number;
  exposureRangeHigh: number;
  organizationType: string[];
  oldestTrailing: number;
  newestTrailing: number;
}

/**
 * The group of a code, ready to send: NAICS codes sorted as text, every LOB as [0],
 * every organization type as [], the exposure type by its spec name, the window after
 * the defaults of section 2. Bounds are exact cents; as JSON numbers they are exact up
 * to 15 significant digits (a revenue bound under 10^13 dollars).
 */
export function suggestedPeerGroup(
  space: WideningSpace,
  trailing: { oldest: number; newest: number },
  code: number,
): SuggestedPeerGroup {
  const { peers } = space;
  const [low, high] = space.exposureRanges[exposureMovesOf(code)]!;
  const lines =
    code & LINE_MOVE || peers.lineOfBusinessIds.length === 0 ? [0] : [...peers.lineOfBusinessIds].sort((a, b) => a - b);
  const window = code & WINDOW_MOVE ? DEFAULT_TRAILING : trailing;
  return {
    naics: code & NAICS_MOVE ? space.widenedNaics2 : [...new Set([...peers.naics2, ...peers.naics3])].sort(byText),
    coverageId: peers.coverageId,
    lineOfBusinessId: lines,
    exposureType: EXPOSURE_NAMES[peers.exposure],
    exposureRangeLow: toNumber(low),
    exposureRangeHigh: toNumber(high),
    organizationType: code & ORGANIZATION_MOVE ? [] : [...peers.organizationTypes].sort(byText),
    oldestTrailing: window.oldest,
    newestTrailing: window.newest,
  };
}
