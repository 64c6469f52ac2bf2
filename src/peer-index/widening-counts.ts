import type { Contributors } from "../benchmark/peer-statistics.js";
import type { WideningCounts } from "../benchmark/peer-group-suggestions.js";
import {
  EXPOSURE_SHIFT,
  LINE_MOVE,
  NAICS_MOVE,
  ORGANIZATION_MOVE,
  WIDENING_CODES,
  widenedGroup,
  WIDEST,
  WINDOW_MOVE,
  withinWidening,
  type WideningSpace,
} from "../benchmark/peer-group-widening.js";
import { boundedContributors, contributorsOfRows, settles, type CompanyBound } from "./contributor-counts.js";
import { dayNumber } from "./day-number.js";
import { compilePeerFilter, firstAbove, matchRows } from "./peer-filter.js";
import { scratchBytes, scratchRows, scratchShorts } from "./scratch.js";
import type { CoverageSlices, PeerSnapshot } from "./snapshot.js";

/**
 * The counts of the 64 widenings of a peer group (SEMANTICS.md section 14) from one
 * scan of the widest group's rows (issue 30): every row gets the widening code of the
 * moves it needs (peer-group-widening.ts), and each candidate's programs are the rows
 * whose code is within its own. So:
 * - programs: a histogram of the 64 codes, summed per candidate;
 * - companies: a company's NAICS, exposure and organization type are the same on each
 *   of its rows, so each company needs one "company part" of the code; its lines and
 *   dates vary, so it keeps the set of (lineOfBusiness, window) parts its rows need
 *   (4 bits). A histogram of (company part, set) over the companies, 512 cells, gives
 *   every candidate's distinct companies;
 * - contributors (only under the disclosure rule): a candidate whose size settles its
 *   company conditions (contributor-counts.ts, CompanyBound) takes them from the
 *   per-source histogram; any other, a small group, is counted exactly over its own
 *   rows, gathered from the scan by code.
 */
export function countWidenings(
  snapshot: PeerSnapshot,
  coverage: CoverageSlices,
  space: WideningSpace,
  contributors: false | { bound?: CompanyBound },
): WideningCounts {
  const { programs: columns } = snapshot;
  const widest = widenedGroup(space, WIDEST);
  const wide = compilePeerFilter(snapshot, widest.peers);
  // The requested group's lines and types, and its exposure bounds after 0, 1 and 2 moves.
  const [exact, once, twice] = [0, 1, 2].map((moves) => {
    const [exposureLow, exposureHigh] = space.exposureRanges[moves]!;
    return compilePeerFilter(snapshot, { ...space.peers, exposureLow, exposureHigh });
  }) as [
    ReturnType<typeof compilePeerFilter>,
    ReturnType<typeof compilePeerFilter>,
    ReturnType<typeof compilePeerFilter>,
  ];
  const requestedKeys = new Set(exact.naicsKeys);
  const { day, company, source, organization, line } = columns;
  const exposure = columns[wide.exposure];
  const [after, until] = [dayNumber(widest.window.start), dayNumber(widest.window.end)];
  const [ownAfter, ownUntil] = [dayNumber(space.window.start), dayNumber(space.window.end)];

  const { byNaics, start, end } = coverage.programs;
  const rows = scratchRows("programs", end - start);
  const codes = scratchBytes(end - start);
  const perCode = new Uint32Array(WIDENING_CODES);
  const sourceCount = snapshot.sources.length;
  const perCodeAndSource = contributors ? new Uint32Array(WIDENING_CODES * sourceCount) : undefined;
  // Per company: its part of the code (bits 0-4) << 4 | the set of (line, window) parts of its rows.
  const perCompany = scratchShorts(snapshot.companyCount);
  let count = 0;
  for (const key of wide.naicsKeys) {
    if (byNaics[key] === byNaics[key + 1]) continue;
    const [from, to] = [byNaics[key]!, byNaics[key + 1]!];
    const first = count;
    count = matchRows(columns, wide, firstAbove(day, from, to, after), firstAbove(day, from, to, until), rows, count);
    const naicsMove = requestedKeys.has(key) ? 0 : NAICS_MOVE;
    for (let r = first; r < count; r++) {
      const i = rows[r]!;
      const value = exposure[i]!;
      // The ranges are nested: the moves a row needs are 3 less each range that holds it.
      const exposureMoves =
        3 -
        +(value >= twice.low && value <= twice.high) -
        +(value >= once.low && value <= once.high) -
        +(value >= exact.low && value <= exact.high);
      const lineMove = 1 - exact.lines[line[i]!]!;
      const organizationMove = 1 - exact.organizations[organization[i]!]!;
      const dayOf = day[i]!;
      const windowMove = 1 - (+(dayOf > ownAfter) & +(dayOf <= ownUntil));
      const companyPart = naicsMove | (exposureMoves << EXPOSURE_SHIFT) | (organizationMove * ORGANIZATION_MOVE);
      const code = companyPart | (lineMove * LINE_MOVE) | (windowMove * WINDOW_MOVE);
      codes[r] = code;
      perCode[code]!++;
      if (perCodeAndSource) perCodeAndSource[code * sourceCount + source[i]!]!++;
      perCompany[company[i]!] = (companyPart << 4) | perCompany[company[i]!]! | (1 << (lineMove | (windowMove << 1)));
    }
  }
  const companyCells = new Uint32Array(32 * 16);
  for (let r = 0; r < count; r++) {
    const c = company[rows[r]!]!;
    const cell = perCompany[c]!;
    if (cell === 0) continue; // counted already
    companyCells[cell]!++;
    perCompany[c] = 0;
  }

  const programs = new Array<number>(WIDENING_CODES).fill(0);
  const companies = new Array<number>(WIDENING_CODES).fill(0);
  for (let candidate = 0; candidate < WIDENING_CODES; candidate++) {
    for (let code = 0; code < WIDENING_CODES; code++)
      if (withinWidening(code, candidate)) programs[candidate]! += perCode[code]!;
    companies[candidate] = companiesWithin(companyCells, candidate);
  }
  if (!contributors) return { programs, companies };
  const gather = gathering(rows, codes, count, perCode);
  const counted: Contributors[] = [];
  for (let candidate = 0; candidate < WIDENING_CODES; candidate++) {
    if (settles(contributors.bound, programs[candidate]!)) {
      const perSource = new Uint32Array(sourceCount);
      for (let code = 0; code < WIDENING_CODES; code++) {
        if (!withinWidening(code, candidate)) continue;
        for (let s = 0; s < sourceCount; s++) perSource[s]! += perCodeAndSource![code * sourceCount + s]!;
      }
      counted.push(boundedContributors(perSource, contributors.bound!));
    } else {
      const own = gather(candidate);
      counted.push(contributorsOfRows(snapshot, own.rows, own.count));
    }
  }
  return { programs, companies, contributors: counted };
}

/** The companies of a candidate: those whose part is within it and with some (line, window) part within it. */
function companiesWithin(cells: Uint32Array, candidate: number): number {
  let allowed = 0;
  for (let k = 0; k < 4; k++)
    if (withinWidening((k & 1) * LINE_MOVE + (k >> 1) * WINDOW_MOVE, candidate)) allowed |= 1 << k;
  let n = 0;
  for (let part = 0; part < 32; part++) {
    if (!withinWidening(part, candidate)) continue;
    for (let set = 1; set < 16; set++) if (set & allowed) n += cells[(part << 4) | set]!;
  }
  return n;
}

/**
 * A candidate's own rows: the scan's rows sorted by code once (a counting sort), then
 * each candidate's codes' runs copied together.
 */
function gathering(rows: Uint32Array, codes: Uint8Array, count: number, perCode: Uint32Array) {
  let sorted: { rows: Uint32Array; starts: Uint32Array } | undefined;
  return (candidate: number) => {
    if (!sorted) {
      const starts = new Uint32Array(WIDENING_CODES + 1);
      for (let code = 0; code < WIDENING_CODES; code++) starts[code + 1] = starts[code]! + perCode[code]!;
      const next = starts.slice(0, WIDENING_CODES);
      const byCode = new Uint32Array(count);
      for (let r = 0; r < count; r++) byCode[next[codes[r]!]!++] = rows[r]!;
      sorted = { rows: byCode, starts };
    }
    const out = scratchRows("gathered", count);
    let n = 0;
    for (let code = 0; code < WIDENING_CODES; code++) {
      if (!withinWidening(code, candidate)) continue;
      out.set(sorted.rows.subarray(sorted.starts[code]!, sorted.starts[code + 1]!), n);
      n += sorted.starts[code + 1]! - sorted.starts[code]!;
    }
    return { rows: out, count: n };
  };
}
