import type { LossExperience, Withheld } from "../api/types.js";
import { withheldReason } from "./trend-rows.js";

/**
 * Why the total's programs are withheld, as far as the answer tells (SEMANTICS.md 15: when
 * the total's own set passes but a year is withheld, the total repeats the oldest withheld
 * year's condition, so no year's count follows by subtraction). Its condition words alone
 * ("fewer than 5 companies") would then read as the whole group having that few.
 * - `own`: all the years together break the rule: no year is withheld, or the total names
 *   another condition than the oldest withheld year's.
 * - `years`: only because a year is: it repeats a year's `min_companies` while another year
 *   passes, and that year alone has enough companies, so all the years together have too.
 * - `either`: it repeats a year's, and the answer cannot tell whether its own set breaks
 *   the rule as well.
 */
export interface TotalWithholding {
  kind: "own" | "years" | "either";
  /** The condition the total names, in the console's words. */
  reason: string;
  /** The years whose programs are withheld. */
  withheldYears: number;
}

const same = (a: Withheld, b: Withheld) => a.condition === b.condition && a.threshold === b.threshold;

/** How the total's programs are withheld; null when they are not. */
export function totalWithholding(experience: LossExperience): TotalWithholding | null {
  const { total, years } = experience;
  if (!total.withheld) return null;
  const withheld = years.filter((y) => y.withheld);
  const oldest = withheld[0]?.withheld;
  const reason = withheldReason(total.withheld);
  const base = { reason, withheldYears: withheld.length };
  if (!oldest || !same(oldest, total.withheld)) return { kind: "own", ...base };
  const passing = withheld.length < years.length;
  return { kind: total.withheld.condition === "min_companies" && passing ? "years" : "either", ...base };
}

/**
 * The total's reason in a broker's words: its condition when the years together break the
 * rule; otherwise that the total would give the withheld years' counts away, and, when
 * the answer cannot rule it out, that the years together may break the rule too.
 */
export function totalWithheldText(withholding: TotalWithholding): string {
  const reveal = "the total would reveal the withheld years' counts";
  switch (withholding.kind) {
    case "own":
      return withholding.reason;
    case "years":
      return reveal;
    case "either":
      return `${reveal}, and may itself break the rule: ${withholding.reason}`;
  }
}
