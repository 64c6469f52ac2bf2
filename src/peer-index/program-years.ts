import { dayNumber } from "./day-number.js";
import { NAICS_KEYS } from "./naics-key.js";
import type { RowFilter } from "./peer-filter.js";
import type { NaicsRows, ProgramColumns, ProgramYears } from "./snapshot.js";

/**
 * A coverage's programs counted ahead by NAICS key and calendar year, for the loss
 * experience (SEMANTICS.md section 15: programs per calendar year, no window). A group
 * whose exposure range holds every known exposure of a key's companies, of every
 * organization type and line, counts that key's programs of a year as the programs of
 * the year whose exposure is known: one read instead of a pass over its rows. Broad
 * groups are such groups (revenues 0 to 10^15): the broadest group's twenty years are
 * 927K rows at Advisen scale, 1.6-3 ms a pass. Held at build, a few hundred KiB a
 * coverage (ProgramYears, snapshot.ts); a key the range cuts is still read row by row.
 */

/** The exposures in the order the counts hold them. */
const EXPOSURES = ["revenues", "employees", "marketCap"] as const;

/** A coverage whose programs span more calendar years than this is not counted ahead: its groups are read row by row. */
const MAX_YEARS = 64;

const DAY_MS = 86_400_000;

export function emptyProgramYears(): ProgramYears {
  return {
    firstYear: 0,
    years: 0,
    known: new Int32Array(0),
    least: new Float64Array(0),
    greatest: new Float64Array(0),
  };
}

/** The counts of a coverage's programs, sorted by day within each NAICS key (snapshot.ts). */
export function countProgramYears(programs: ProgramColumns, rows: NaicsRows): ProgramYears {
  const { byNaics } = rows;
  const { day } = programs;
  let firstDay = Infinity;
  let lastDay = -Infinity;
  for (let key = 0; key < NAICS_KEYS; key++) {
    if (byNaics[key] === byNaics[key + 1]) continue;
    firstDay = Math.min(firstDay, day[byNaics[key]!]!);
    lastDay = Math.max(lastDay, day[byNaics[key + 1]! - 1]!);
  }
  if (firstDay > lastDay) return emptyProgramYears();
  const firstYear = yearOf(firstDay);
  const years = yearOf(lastDay) - firstYear + 1;
  if (years > MAX_YEARS) return emptyProgramYears();
  const known = new Int32Array(NAICS_KEYS * years * EXPOSURES.length);
  const least = new Float64Array(NAICS_KEYS * EXPOSURES.length).fill(Infinity);
  const greatest = new Float64Array(NAICS_KEYS * EXPOSURES.length).fill(-Infinity);
  EXPOSURES.forEach((exposure, e) => {
    const values = programs[exposure];
    for (let key = 0; key < NAICS_KEYS; key++) {
      // Days ascend within a key: the year changes only at a year's end.
      let slot = 0;
      let yearEnd = -Infinity;
      for (let i = byNaics[key]!; i < byNaics[key + 1]!; i++) {
        if (day[i]! > yearEnd) {
          const year = yearOf(day[i]!);
          slot = (key * years + year - firstYear) * EXPOSURES.length + e;
          yearEnd = dayNumber(`${year}-12-31`);
        }
        const value = values[i]!;
        if (value !== value) continue; // NaN: unknown
        known[slot]!++;
        if (value < least[key * EXPOSURES.length + e]!) least[key * EXPOSURES.length + e] = value;
        if (value > greatest[key * EXPOSURES.length + e]!) greatest[key * EXPOSURES.length + e] = value;
      }
    }
  });
  return { firstYear, years, known, least, greatest };
}

/**
 * Whether the counts answer for `key` under `filter`: every type and line pass, and the
 * exposure range holds every known exposure of the key (or the key has none). Only
 * then is a program of the key a peer exactly when its exposure is known.
 */
export function countsAnswer(counts: ProgramYears, filter: RowFilter, key: number): boolean {
  if (counts.years === 0 || !filter.exposureOnly) return false;
  const at = key * EXPOSURES.length + EXPOSURES.indexOf(filter.exposure);
  return (
    counts.least[at]! > counts.greatest[at]! || (filter.low <= counts.least[at]! && counts.greatest[at]! <= filter.high)
  );
}

/** The key's programs of `year` with the filter's exposure known: 0 outside the coverage's years, which hold none. */
export function knownPrograms(counts: ProgramYears, filter: RowFilter, key: number, year: number): number {
  const y = year - counts.firstYear;
  if (y < 0 || y >= counts.years) return 0;
  return counts.known[(key * counts.years + y) * EXPOSURES.length + EXPOSURES.indexOf(filter.exposure)]!;
}

const yearOf = (day: number) => new Date(day * DAY_MS).getUTCFullYear();
