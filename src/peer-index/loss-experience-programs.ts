import type { LossExperienceSpan } from "../benchmark/loss-experience-statistics.js";
import { dayNumber } from "./day-number.js";
import { countMatches, firstAbove, matchRows, type CompiledPeerFilter } from "./peer-filter.js";
import { countsAnswer, knownPrograms } from "./program-years.js";
import { scratchRows } from "./scratch.js";
import type { CoverageSlices, ProgramColumns } from "./snapshot.js";

/**
 * The peer programs of each calendar year of a loss experience (SEMANTICS.md section
 * 15: effective in the year, no window). In each NAICS key the group's codes match,
 * rows are sorted by day, so a year is one range of rows found by binary search.
 */

/** A year's matched program rows: `rows[start .. start + count)`. */
export interface YearRows {
  start: number;
  count: number;
}

/** Each year's last day, from the day before the span: year first + y holds the days after ends[y] up to ends[y + 1]. */
function yearEnds(span: LossExperienceSpan): number[] {
  return Array.from({ length: span.last - span.first + 2 }, (_, y) => dayNumber(`${span.first - 1 + y}-12-31`));
}

/**
 * The programs of each year, counted: from the coverage's counts (program-years.ts) for
 * each key whose known exposures the group's range holds whole, else by a pass over the
 * key's rows of each year. The broadest group reads no row.
 */
export function programCountsByYear(
  programs: ProgramColumns,
  { programs: rowsOfCoverage, programYears }: Pick<CoverageSlices, "programs" | "programYears">,
  filter: CompiledPeerFilter,
  span: LossExperienceSpan,
): number[] {
  const { byNaics } = rowsOfCoverage;
  const counts = new Array<number>(span.last - span.first + 1).fill(0);
  let ends: number[] | undefined;
  for (const key of filter.naicsKeys) {
    if (byNaics[key] === byNaics[key + 1]) continue;
    if (countsAnswer(programYears, filter, key)) {
      for (let y = 0; y < counts.length; y++) counts[y]! += knownPrograms(programYears, filter, key, span.first + y);
      continue;
    }
    ends ??= yearEnds(span);
    const to = byNaics[key + 1]!;
    // A year's end is where the next year starts.
    let at = firstAbove(programs.day, byNaics[key]!, to, ends[0]!);
    for (let y = 0; y < counts.length; y++) {
      const end = firstAbove(programs.day, at, to, ends[y + 1]!);
      counts[y]! += countMatches(programs, filter, at, end);
      at = end;
    }
  }
  return counts;
}

/**
 * The matched program rows of each year, oldest first, in one buffer (`rows`), year
 * after year: each year's rows, and all of them, lie in one run, whose contributors the
 * disclosure rule counts (contributor-counts.ts).
 */
export function programRowsByYear(
  programs: ProgramColumns,
  { programs: rowsOfCoverage }: Pick<CoverageSlices, "programs">,
  filter: CompiledPeerFilter,
  span: LossExperienceSpan,
): { rows: Uint32Array; years: YearRows[] } {
  const { byNaics } = rowsOfCoverage;
  const keys = filter.naicsKeys.filter((key) => byNaics[key] !== byNaics[key + 1]);
  const ends = yearEnds(span);
  const rows = scratchRows("programs", rowsOfCoverage.end - rowsOfCoverage.start);
  // Where each key's next year starts: a year's end is the next one's start.
  const at = Int32Array.from(keys, (key) => firstAbove(programs.day, byNaics[key]!, byNaics[key + 1]!, ends[0]!));
  const years: YearRows[] = [];
  let count = 0;
  for (let y = 0; y + 1 < ends.length; y++) {
    const start = count;
    for (let k = 0; k < keys.length; k++) {
      const end = firstAbove(programs.day, at[k]!, byNaics[keys[k]! + 1]!, ends[y + 1]!);
      count = matchRows(programs, filter, at[k]!, end, rows, count);
      at[k] = end;
    }
    years.push({ start, count: count - start });
  }
  return { rows, years };
}
