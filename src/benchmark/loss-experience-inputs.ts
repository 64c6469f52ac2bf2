import { Decimal, toCents } from "./decimal.js";
import type { FieldProblems } from "./field-problems.js";
import type { LossExperienceSpan } from "./loss-experience-statistics.js";

/** What a loss experience asks for beyond the peer group (SEMANTICS.md section 15), after the defaults. */
export interface LossExperienceAsk {
  years: number;
  /** Exact cents, each above 0, in the order given (a repeated one stays). */
  limits: Decimal[];
}

const DEFAULT_YEARS = 5;
const MIN_YEARS = 1;
/** Twenty years: twice the depth of a generated book (CONVENTIONS.md, `cpb generate`). */
const MAX_YEARS = 20;

/** The exact decimal text of a list's item: the caller's own digits where the transport kept them (REST). */
export type ItemText = (index: number, value: number) => string;

const shortestForm: ItemText = (_index, value) => String(value);

/**
 * years and limits (SEMANTICS.md section 15). `years` absent or null means 5; anything
 * else, 0 included, must be an integer from 1 to 20, so the field is `optional` in the
 * proto. Each limit is read as the client's limit is (section 11: rounded to cents
 * first) and must then be above 0: 0.004 is refused, 0.005 is 0.01. A list over its 3
 * items was refused while it was read (max_items, options.proto), under `limits`.
 */
export function readLossExperienceAsk(
  input: { years?: number; limits: readonly number[] },
  problems: FieldProblems,
  text: ItemText = shortestForm,
): LossExperienceAsk | undefined {
  const years = input.years ?? DEFAULT_YEARS;
  let valid = problems.usable("years") && problems.usable("limits");
  if (problems.usable("years") && !(Number.isInteger(years) && years >= MIN_YEARS && years <= MAX_YEARS)) {
    problems.add("years", `must be an integer from ${MIN_YEARS} to ${MAX_YEARS}, not ${years}`);
    valid = false;
  }
  const limits: Decimal[] = [];
  if (problems.usable("limits")) {
    input.limits.forEach((value, index) => {
      const written = text(index, value);
      // gRPC and Connect callers can send NaN and ±Infinity as doubles; they are no amounts.
      const cents = new Decimal(written).isFinite() ? toCents(written) : undefined;
      if (cents?.isPositive() && !cents.isZero()) return void limits.push(cents);
      problems.add("limits", `must be amounts greater than 0 after rounding to cents, not ${written}`);
      valid = false;
    });
  }
  return valid ? { years, limits } : undefined;
}

/** The years answered: `years` calendar years ending with the year before the as-of date's. */
export function lossExperienceSpan(asOf: string, years: number): LossExperienceSpan {
  const last = Number(asOf.slice(0, 4)) - 1;
  return { first: last - years + 1, last };
}
