import type { FieldProblems } from "./field-problems.js";

/**
 * Which loss events pass, by loss year (SEMANTICS.md section 3): the exact year,
 * or a range with either end open. The loss year of an event is its accident's
 * year, else its filing's.
 */
export type LossYearFilter =
  { kind: "any" } | { kind: "exact"; year: number } | { kind: "range"; oldest?: number; newest?: number };

const MIN_EXCLUSIVE = 1800;
const MAX = 9999;

/**
 * 0 or absent means not given. lossYear, when given, wins and the range is ignored
 * entirely (not even validated). Every given year is > 1800 and <= 9999, and
 * newestLossYear > oldestLossYear strictly when both are given.
 */
export function readLossYears(
  input: { lossYear?: number; oldestLossYear?: number; newestLossYear?: number },
  problems: FieldProblems,
): LossYearFilter | undefined {
  if (!problems.usable("lossYear")) return undefined;
  if (input.lossYear) {
    problems.ignore("oldestLossYear");
    problems.ignore("newestLossYear");
    return validYear("lossYear", input.lossYear, problems) ? { kind: "exact", year: input.lossYear } : undefined;
  }

  const oldest = input.oldestLossYear || undefined;
  const newest = input.newestLossYear || undefined;
  const oldestValid =
    problems.usable("oldestLossYear") && (oldest === undefined || validYear("oldestLossYear", oldest, problems));
  const newestValid =
    problems.usable("newestLossYear") && (newest === undefined || validYear("newestLossYear", newest, problems));
  if (!oldestValid || !newestValid) return undefined;
  if (oldest !== undefined && newest !== undefined && newest <= oldest) {
    problems.add("newestLossYear", `must be greater than oldestLossYear (${oldest})`);
    return undefined;
  }
  if (oldest === undefined && newest === undefined) return { kind: "any" };
  return { kind: "range", oldest, newest };
}

function validYear(field: string, year: number, problems: FieldProblems): boolean {
  if (year > MIN_EXCLUSIVE && year <= MAX) return true;
  problems.add(field, `must be a year after ${MIN_EXCLUSIVE} and at most ${MAX}, not ${year}`);
  return false;
}
