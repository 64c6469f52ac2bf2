import { Decimal } from "./decimal.js";
import type { PeerGroup } from "./peer-group.js";
import { DEFAULT_TRAILING, timeWindow, type TimeWindow } from "./time-window.js";

/**
 * The widenings of a peer group that SEMANTICS.md section 14 considers, as one code
 * each (a "widening code", 0..63): bit 0 the naics move, bits 1-2 the number of
 * exposure moves (0 to 3), bit 3 lineOfBusiness, bit 4 organizationType, bit 5
 * window. The candidates are the codes other than 0 (the group itself).
 *
 * The same code describes where a program of the widest group first belongs: a row
 * whose code is r is in the candidate c exactly when r's moves are within c's
 * (withinWidening). Every move only widens (the exposure ranges are nested, and any
 * allowed window lies within the default one, SEMANTICS.md section 2), so the engines
 * count all 64 from one scan of the widest group's rows.
 */
export const WIDENING_CODES = 64;

export const NAICS_MOVE = 1;
export const EXPOSURE_SHIFT = 1;
export const LINE_MOVE = 8;
export const ORGANIZATION_MOVE = 16;
export const WINDOW_MOVE = 32;
const EXPOSURE_BITS = 3 << EXPOSURE_SHIFT;
export const MAX_EXPOSURE_MOVES = 3;

export type MoveName = "naics" | "exposure" | "lineOfBusiness" | "organizationType" | "window";

/** The number of exposure moves of a code. */
export const exposureMovesOf = (code: number): number => (code & EXPOSURE_BITS) >> EXPOSURE_SHIFT;

/** Whether a row first belonging at `row` is in candidate `candidate`: its single moves among the candidate's, no more exposure moves. */
export function withinWidening(row: number, candidate: number): boolean {
  return (row & ~EXPOSURE_BITS & ~candidate) === 0 && exposureMovesOf(row) <= exposureMovesOf(candidate);
}

/** The moves of a code in the order of section 14: naics, exposure (once per step), lineOfBusiness, organizationType, window. */
export function movesOf(code: number): MoveName[] {
  const moves: MoveName[] = [];
  if (code & NAICS_MOVE) moves.push("naics");
  for (let i = 0; i < exposureMovesOf(code); i++) moves.push("exposure");
  if (code & LINE_MOVE) moves.push("lineOfBusiness");
  if (code & ORGANIZATION_MOVE) moves.push("organizationType");
  if (code & WINDOW_MOVE) moves.push("window");
  return moves;
}

/** Everything an engine needs to count the 64 widenings of one peer group from one scan. */
export interface WideningSpace {
  /** The requested group, and its window after section 2's defaults. */
  peers: PeerGroup;
  window: TimeWindow;
  /** The NAICS codes after the naics move: every 3-digit code as its 2-digit prefix. */
  widenedNaics2: string[];
  /** The exposure bounds after 0, 1, 2 and 3 exposure moves (index = moves), exact cents. */
  exposureRanges: readonly (readonly [Decimal, Decimal])[];
  /** The default window (oldestTrailing 24, newestTrailing 0). */
  defaultWindow: TimeWindow;
}

/** The codes of section 14's naics move: duplicates dropped, sorted as text. */
export function widenNaics(peers: PeerGroup): string[] {
  return [...new Set([...peers.naics2, ...peers.naics3.map((code) => code.slice(0, 2))])].sort(byText);
}

/**
 * One exposure move (section 14): low / 2 rounded down to cents, high * 2, from bounds
 * already in cents (section 11).
 */
export function widenExposure([low, high]: readonly [Decimal, Decimal]): [Decimal, Decimal] {
  return [low.div(2).toDecimalPlaces(2, Decimal.ROUND_DOWN), high.times(2)];
}

export function wideningSpace(
  peers: PeerGroup,
  asOf: string,
  trailing: { oldest: number; newest: number },
): WideningSpace {
  const ranges: [Decimal, Decimal][] = [[peers.exposureLow, peers.exposureHigh]];
  while (ranges.length <= MAX_EXPOSURE_MOVES) ranges.push(widenExposure(ranges[ranges.length - 1]!));
  return {
    peers,
    window: timeWindow(asOf, trailing),
    widenedNaics2: widenNaics(peers),
    exposureRanges: ranges,
    defaultWindow: timeWindow(asOf, DEFAULT_TRAILING),
  };
}

/** The group a code widens the requested one to, with its window. */
export function widenedGroup(space: WideningSpace, code: number): { peers: PeerGroup; window: TimeWindow } {
  const { peers } = space;
  const [exposureLow, exposureHigh] = space.exposureRanges[exposureMovesOf(code)]!;
  return {
    peers: {
      ...peers,
      naics2: code & NAICS_MOVE ? space.widenedNaics2 : peers.naics2,
      naics3: code & NAICS_MOVE ? [] : peers.naics3,
      exposureLow,
      exposureHigh,
      lineOfBusinessIds: code & LINE_MOVE ? [] : peers.lineOfBusinessIds,
      organizationTypes: code & ORGANIZATION_MOVE ? [] : peers.organizationTypes,
    },
    window: code & WINDOW_MOVE ? space.defaultWindow : space.window,
  };
}

/** The widest group: every move, exposure three times. Every candidate's programs are among its. */
export const WIDEST = WIDENING_CODES - 1;

/**
 * The single moves section 14 allows for this group (their bits): naics when some code
 * has 3 digits, lineOfBusiness when the group does not take every LOB, organizationType
 * when it names types and not All, window when its window is not the default.
 * The exposure move is always possible.
 */
export function possibleMoves(peers: PeerGroup, trailing: { oldest: number; newest: number }): number {
  let moves = 0;
  if (peers.naics3.length > 0) moves |= NAICS_MOVE;
  if (peers.lineOfBusinessIds.length > 0) moves |= LINE_MOVE;
  if (peers.organizationTypes.length > 0) moves |= ORGANIZATION_MOVE;
  if (trailing.oldest !== DEFAULT_TRAILING.oldest || trailing.newest !== DEFAULT_TRAILING.newest) moves |= WINDOW_MOVE;
  return moves;
}

/** Text order by UTF-16 code units, never by locale (SEMANTICS.md section 14: "as text"). */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
