import type { FieldProblems } from "./field-problems.js";
import { DEFAULT_TRAILING, NEWEST_TRAILING, OLDEST_TRAILING } from "./time-window.js";

/**
 * oldestTrailing and newestTrailing (SEMANTICS.md section 2): 0 or absent means not
 * given; O defaults to 24 and N to 0; O in {24, 12, 9, 6, 3}, N in {12, 9, 6, 3, 0},
 * and N < O after the defaults (a problem of newestTrailing).
 */
export function readTrailing(
  oldestTrailing: number | undefined,
  newestTrailing: number | undefined,
  problems: FieldProblems,
): { oldest: number; newest: number } | undefined {
  const oldest = oldestTrailing || DEFAULT_TRAILING.oldest;
  const newest = newestTrailing || DEFAULT_TRAILING.newest;
  let valid = problems.usable("oldestTrailing") && problems.usable("newestTrailing");
  if (problems.usable("oldestTrailing") && !(OLDEST_TRAILING as readonly number[]).includes(oldest)) {
    problems.add("oldestTrailing", `must be one of ${OLDEST_TRAILING.join(", ")}, not ${oldest}`);
    valid = false;
  }
  if (problems.usable("newestTrailing") && !(NEWEST_TRAILING as readonly number[]).includes(newest)) {
    problems.add("newestTrailing", `must be one of ${NEWEST_TRAILING.join(", ")}, not ${newest}`);
    valid = false;
  }
  if (valid && newest >= oldest) {
    problems.add("newestTrailing", `must be less than oldestTrailing (${oldest})`);
    valid = false;
  }
  return valid ? { oldest, newest } : undefined;
}
