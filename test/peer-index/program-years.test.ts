// The programs counted ahead by NAICS key, calendar year and known exposure
// (program-years.ts), which the loss experience reads instead of the rows when a group's
// exposure range holds a key's every known exposure (SEMANTICS.md section 15).
import t from "tap";
import { dayNumber } from "../../src/peer-index/day-number.js";
import { NAICS_KEYS } from "../../src/peer-index/naics-key.js";
import type { RowFilter } from "../../src/peer-index/peer-filter.js";
import { countProgramYears, countsAnswer, knownPrograms } from "../../src/peer-index/program-years.js";
import type { NaicsRows, ProgramColumns } from "../../src/peer-index/snapshot.js";

/** Rows by key, each [date, revenues in cents or NaN]; employees and market cap unknown. */
function coverage(byKey: Record<number, [string, number][]>): { programs: ProgramColumns; rows: NaicsRows } {
  const rows = Object.entries(byKey).flatMap(([key, list]) => list.map((row) => [Number(key), ...row] as const));
  const byNaics = new Int32Array(NAICS_KEYS + 1);
  for (const [key] of rows) byNaics[key + 1]!++;
  for (let k = 0; k < NAICS_KEYS; k++) byNaics[k + 1]! += byNaics[k]!;
  const programs = {
    day: Int32Array.from(rows, ([, date]) => dayNumber(date)),
    revenues: Float64Array.from(rows, ([, , revenues]) => revenues),
    employees: new Float32Array(rows.length).fill(NaN),
    marketCap: new Float64Array(rows.length).fill(NaN),
  } as unknown as ProgramColumns;
  return { programs, rows: { start: 0, end: rows.length, byNaics } };
}

const revenues = (low: number, high: number, exposureOnly = true): RowFilter => ({
  organizations: new Uint8Array(0),
  lines: new Uint8Array(0),
  exposure: "revenues",
  low,
  high,
  exposureOnly,
});

t.test("counts by key, calendar year and known exposure", async (t) => {
  const { programs, rows } = coverage({
    524: [
      ["2023-12-31", 100],
      ["2024-01-01", 300],
      ["2024-06-01", NaN], // unknown: not counted
      ["2024-12-31", 200],
      ["2026-01-01", 500],
    ],
    1052: [["2025-05-05", NaN]], // no known revenue at all
  });
  const counts = countProgramYears(programs, rows);
  t.equal(counts.firstYear, 2023);
  t.equal(counts.years, 4, "2023 to 2026");
  const all = revenues(0, 1e17);
  t.strictSame(
    [2022, 2023, 2024, 2025, 2026, 2027].map((year) => knownPrograms(counts, all, 524, year)),
    [0, 1, 2, 0, 1, 0],
    "a year's first and last days are its own; years outside the coverage's hold none",
  );
  t.equal(knownPrograms(counts, all, 1052, 2025), 0, "an unknown exposure is no peer's");
  t.equal(knownPrograms(counts, { ...all, exposure: "employees" }, 524, 2024), 0, "per exposure");
  t.ok(countsAnswer(counts, revenues(100, 500), 524), "a range holding the least and the greatest");
  t.notOk(countsAnswer(counts, revenues(100, 499.99), 524), "a range that cuts the key: read the rows");
  t.notOk(countsAnswer(counts, revenues(101, 500), 524));
  t.notOk(countsAnswer(counts, revenues(0, 1e17, false), 524), "a type or line rule: read the rows");
  t.ok(countsAnswer(counts, revenues(7, 8), 1052), "a key without a known exposure: none is a peer");
  t.ok(countsAnswer(counts, revenues(0, 1e17), 5), "an empty key");
});

t.test("a coverage spanning more than 64 years is not counted ahead", async (t) => {
  const { programs, rows } = coverage({
    524: [
      ["1900-01-01", 1],
      ["1964-01-01", 1],
    ],
  });
  const counts = countProgramYears(programs, rows);
  t.equal(counts.years, 0);
  t.notOk(countsAnswer(counts, revenues(0, 1e17), 524), "its groups are read row by row");
  const { programs: within, rows: withinRows } = coverage({
    524: [
      ["1900-01-01", 1],
      ["1963-12-31", 1],
    ],
  });
  t.equal(countProgramYears(within, withinRows).years, 64, "64 years are");
  t.equal(countProgramYears(programs, { ...rows, end: 0, byNaics: new Int32Array(NAICS_KEYS + 1) }).years, 0, "none");
});
