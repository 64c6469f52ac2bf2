import {
  EXPOSURE_SHIFT,
  LINE_MOVE,
  NAICS_MOVE,
  ORGANIZATION_MOVE,
  WIDENING_CODES,
  widenedGroup,
  WIDEST,
  WINDOW_MOVE,
  type WideningSpace,
} from "../benchmark/peer-group-widening.js";
import { dayNumber } from "./day-number.js";
import {
  compilePeerFilter,
  firstAbove,
  matchRows,
  rowFilterOf,
  type CompiledPeerFilter,
  type RowFilter,
} from "./peer-filter.js";
import type { ProgramSnapshot } from "./period-programs.js";
import { scratchBytes, scratchRows, scratchShorts } from "./scratch.js";
import type { CoverageSlices, PeerSnapshot } from "./snapshot.js";

/**
 * The one scan of the widest candidate's rows that counts a peer group's 64 widenings
 * (widening-counts.ts), in plain data, so that it crosses threads: the widest group's
 * filter, what each row is compared with to find its widening code, and the rows to
 * scan, as one range per NAICS key.
 */
export interface WideningPlan {
  widest: RowFilter;
  /** The requested group's exposure bounds after 0, 1 and 2 moves (nested: each holds the one before). */
  exposures: readonly [ExposureBounds, ExposureBounds, ExposureBounds];
  /** The requested group's lines and organization types (1: in it). */
  lines: Uint8Array;
  organizations: Uint8Array;
  /** The requested group's window, as day numbers: after, until. */
  ownAfter: number;
  ownUntil: number;
  /** Per NAICS key of the widest group: its rows in the widest window [starts, ends), and its NAICS move (0 when requested). */
  starts: Int32Array;
  ends: Int32Array;
  naicsMoves: Uint8Array;
}

/** Exposure bounds as the snapshot's exposure columns compare them. */
interface ExposureBounds {
  low: number;
  high: number;
}

const boundsOf = ({ low, high }: ExposureBounds): ExposureBounds => ({ low, high });

/**
 * What the scan counts, summed over the rows scanned: programs per widening code, and
 * companies per (company part, set of line and window parts) cell, 512 of them. Both
 * are sums over the NAICS keys scanned: a company's rows all lie in its NAICS key.
 */
export interface WideningTallies {
  perCode: Uint32Array;
  companyCells: Uint32Array;
}

export const emptyTallies = (): WideningTallies => ({
  perCode: new Uint32Array(WIDENING_CODES),
  companyCells: new Uint32Array(32 * 16),
});

/** Adds `more` into `into`. */
export function addTallies(into: WideningTallies, more: WideningTallies): void {
  for (let i = 0; i < into.perCode.length; i++) into.perCode[i]! += more.perCode[i]!;
  for (let i = 0; i < into.companyCells.length; i++) into.companyCells[i]! += more.companyCells[i]!;
}

export function wideningPlan(snapshot: PeerSnapshot, coverage: CoverageSlices, space: WideningSpace): WideningPlan {
  const widest = widenedGroup(space, WIDEST);
  const wide = compilePeerFilter(snapshot, widest.peers);
  // The requested group's lines and types, and its exposure bounds after 0, 1 and 2 moves.
  const [exact, once, twice] = [0, 1, 2].map((moves) => {
    const [exposureLow, exposureHigh] = space.exposureRanges[moves]!;
    return compilePeerFilter(snapshot, { ...space.peers, exposureLow, exposureHigh });
  }) as [CompiledPeerFilter, CompiledPeerFilter, CompiledPeerFilter];
  const requestedKeys = new Set(exact.naicsKeys);
  const { day } = snapshot.programs;
  const [after, until] = [dayNumber(widest.window.start), dayNumber(widest.window.end)];
  const { byNaics } = coverage.programs;
  const keys = wide.naicsKeys.filter((key) => byNaics[key] !== byNaics[key + 1]);
  const starts = new Int32Array(keys.length);
  const ends = new Int32Array(keys.length);
  keys.forEach((key, i) => {
    const [from, to] = [byNaics[key]!, byNaics[key + 1]!];
    starts[i] = firstAbove(day, from, to, after);
    ends[i] = firstAbove(day, from, to, until);
  });
  return {
    widest: rowFilterOf(wide),
    exposures: [boundsOf(exact), boundsOf(once), boundsOf(twice)],
    lines: exact.lines,
    organizations: exact.organizations,
    ownAfter: dayNumber(space.window.start),
    ownUntil: dayNumber(space.window.end),
    starts,
    ends,
    naicsMoves: Uint8Array.from(keys, (key) => (requestedKeys.has(key) ? 0 : NAICS_MOVE)),
  };
}

/** The plan's rows in all. */
export const planRows = ({ starts, ends }: WideningPlan): number =>
  starts.reduce((sum, start, i) => sum + ends[i]! - start, 0);

/** Where a scan of up to `size` rows writes (tallyWidenings): empty tallies and the per-process scratch space. */
export function scanScratch(snapshot: ProgramSnapshot, size: number): ScanScratch {
  return {
    tallies: emptyTallies(),
    rows: scratchRows("programs", size),
    codes: scratchBytes(size),
    perCompany: scratchShorts(snapshot.companyCount),
  };
}

export interface ScanScratch {
  tallies: WideningTallies;
  rows: Uint32Array;
  codes: Uint8Array;
  perCompany: Uint16Array;
}

/** Per source as well as per code (under the disclosure rule): code * sources + source. */
export interface PerSource {
  counts: Uint32Array;
  sources: number;
}

/**
 * Scans the plan's NAICS keys [fromKey, toKey): every matching row gets the widening code
 * of the moves it needs (peer-group-widening.ts), written to `codes` beside its row
 * number in `rows` (from 0), counted per code (and per source), and its company's part
 * and (line, window) set kept in `perCompany` (all zero, and left so); then each company
 * of the keys is counted once in its cell. The rows matched.
 */
export function tallyWidenings(
  { programs: columns }: ProgramSnapshot,
  plan: WideningPlan,
  fromKey: number,
  toKey: number,
  into: ScanScratch,
  perSource?: PerSource,
): number {
  const { day, company, source, organization, line } = columns;
  const exposure = columns[plan.widest.exposure];
  const { ownAfter, ownUntil } = plan;
  const [{ low: exactLow, high: exactHigh }, { low: onceLow, high: onceHigh }, { low: twiceLow, high: twiceHigh }] =
    plan.exposures;
  const { rows, codes, perCompany } = into;
  const { perCode, companyCells } = into.tallies;
  let count = 0;
  for (let k = fromKey; k < toKey; k++) {
    const first = count;
    count = matchRows(columns, plan.widest, plan.starts[k]!, plan.ends[k]!, rows, count);
    const naicsMove = plan.naicsMoves[k]!;
    for (let r = first; r < count; r++) {
      const i = rows[r]!;
      const value = exposure[i]!;
      // The ranges are nested: the moves a row needs are 3 less each range that holds it.
      const exposureMoves =
        3 -
        +(value >= twiceLow && value <= twiceHigh) -
        +(value >= onceLow && value <= onceHigh) -
        +(value >= exactLow && value <= exactHigh);
      const lineMove = 1 - plan.lines[line[i]!]!;
      const organizationMove = 1 - plan.organizations[organization[i]!]!;
      const dayOf = day[i]!;
      const windowMove = 1 - (+(dayOf > ownAfter) & +(dayOf <= ownUntil));
      const companyPart = naicsMove | (exposureMoves << EXPOSURE_SHIFT) | (organizationMove * ORGANIZATION_MOVE);
      const code = companyPart | (lineMove * LINE_MOVE) | (windowMove * WINDOW_MOVE);
      codes[r] = code;
      perCode[code]!++;
      if (perSource) perSource.counts[code * perSource.sources + source[i]!]!++;
      perCompany[company[i]!] = (companyPart << 4) | perCompany[company[i]!]! | (1 << (lineMove | (windowMove << 1)));
    }
  }
  for (let r = 0; r < count; r++) {
    const c = company[rows[r]!]!;
    const cell = perCompany[c]!;
    if (cell === 0) continue; // counted already
    companyCells[cell]!++;
    perCompany[c] = 0;
  }
  return count;
}

/**
 * A plan's keys cut into runs of about `rowsPerChunk` rows (a key is never cut: its
 * companies must be counted in one run): `bounds[j]` to `bounds[j + 1]` is run j. The
 * assessment's shared placing (placing-scan.ts) cuts its keys the same way.
 */
export function chunkKeys(plan: Pick<WideningPlan, "starts" | "ends">, rowsPerChunk: number): Int32Array {
  const bounds = [0];
  let rows = 0;
  for (let k = 0; k < plan.starts.length; k++) {
    rows += plan.ends[k]! - plan.starts[k]!;
    if (rows >= rowsPerChunk && k + 1 < plan.starts.length) {
      bounds.push(k + 1);
      rows = 0;
    }
  }
  bounds.push(plan.starts.length);
  return Int32Array.from(bounds);
}

/** Runs of a plan's keys tallied one at a time into `tallies`, each whole or not at all. */
export interface RunTallier {
  tallies: WideningTallies;
  tally(run: number): void;
}

/** What each thread tallies the runs it takes with (chunkKeys' runs; parts-in-turn.ts). */
export function runTallier(snapshot: ProgramSnapshot, plan: WideningPlan, chunks: Int32Array): RunTallier {
  let largest = 0;
  for (let j = 0; j + 1 < chunks.length; j++) {
    let rows = 0;
    for (let k = chunks[j]!; k < chunks[j + 1]!; k++) rows += plan.ends[k]! - plan.starts[k]!;
    largest = Math.max(largest, rows);
  }
  const tallies = emptyTallies();
  const into = scanScratch(snapshot, largest);
  return {
    tallies,
    tally(run: number): void {
      into.tallies.perCode.fill(0);
      into.tallies.companyCells.fill(0);
      tallyWidenings(snapshot, plan, chunks[run]!, chunks[run + 1]!, into);
      addTallies(tallies, into.tallies);
    },
  };
}
