import type { Contributors } from "../benchmark/peer-statistics.js";
import type { WideningCounts } from "../benchmark/peer-group-suggestions.js";
import { LINE_MOVE, WIDENING_CODES, WINDOW_MOVE, withinWidening } from "../benchmark/peer-group-widening.js";
import { boundedContributors, contributorsOfRows, settles, type CompanyBound } from "./contributor-counts.js";
import { scratchRows } from "./scratch.js";
import type { PeerSnapshot } from "./snapshot.js";
import { planRows, scanScratch, tallyWidenings, type WideningPlan, type WideningTallies } from "./widening-scan.js";

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
 * The scan is widening-scan.ts's; without contributors to count, the engine shares it
 * with the scan thread, and only the candidates' counts are made here (candidateCounts).
 */
export function countWidenings(
  snapshot: PeerSnapshot,
  plan: WideningPlan,
  contributors: false | { bound?: CompanyBound },
): WideningCounts {
  const size = planRows(plan);
  const sourceCount = snapshot.sources.length;
  const perSource = contributors
    ? { counts: new Uint32Array(WIDENING_CODES * sourceCount), sources: sourceCount }
    : undefined;
  const into = scanScratch(snapshot, size);
  const { tallies } = into;
  const count = tallyWidenings(snapshot, plan, 0, plan.starts.length, into, perSource);
  const { programs, companies } = candidateCounts(tallies);
  if (!contributors) return { programs, companies };
  const gather = gathering(into.rows, into.codes, count, tallies.perCode);
  const counted: Contributors[] = [];
  for (let candidate = 0; candidate < WIDENING_CODES; candidate++) {
    if (settles(contributors.bound, programs[candidate]!)) {
      const bySource = new Uint32Array(sourceCount);
      for (let code = 0; code < WIDENING_CODES; code++) {
        if (!withinWidening(code, candidate)) continue;
        for (let s = 0; s < sourceCount; s++) bySource[s]! += perSource!.counts[code * sourceCount + s]!;
      }
      counted.push(boundedContributors(bySource, contributors.bound!));
    } else {
      const own = gather(candidate);
      counted.push(contributorsOfRows(snapshot, own.rows, own.count));
    }
  }
  return { programs, companies, contributors: counted };
}

/** Each candidate's programs and companies, from the scan's tallies. */
export function candidateCounts({ perCode, companyCells }: WideningTallies): {
  programs: number[];
  companies: number[];
} {
  const programs = new Array<number>(WIDENING_CODES).fill(0);
  const companies = new Array<number>(WIDENING_CODES).fill(0);
  for (let candidate = 0; candidate < WIDENING_CODES; candidate++) {
    for (let code = 0; code < WIDENING_CODES; code++)
      if (withinWidening(code, candidate)) programs[candidate]! += perCode[code]!;
    companies[candidate] = companiesWithin(companyCells, candidate);
  }
  return { programs, companies };
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
