import type { LossExperienceTotal } from "../api/types.js";
import { count, dollarsOrDash, money } from "./format.js";
import { frequencyText, yearsSpan, zeroLosses, type LimitColumn } from "./loss-experience-rows.js";

const losses = (n: number) => `${count(n)} loss${n === 1 ? "" : "es"}`;

/**
 * The loss experience of all the years in a broker's words: how often (every loss, $0
 * ones included, per 100 programs), how large the paid ones were ($0 ones apart), and how
 * many passed each limit. A withheld program count is said to be withheld, not read as none,
 * and why: `withheld`, the total's reason (loss-experience-withheld.ts), as the table words it.
 * The amounts are to the dollar, as the table beside it shows them (the CSV has the cents).
 */
export function lossExperienceHeadline(
  total: LossExperienceTotal,
  columns: readonly LimitColumn[],
  withheld: string | null,
): string {
  const span = yearsSpan(total);
  const programs = total.programCount;
  const often = withheld
    ? `${losses(total.lossCount)}; the programs are withheld (${withheld}), so no rate per 100 programs.`
    : programs === null || programs === 0
      ? `${losses(total.lossCount)}, and no program effective in ${total.fromYear === total.toYear ? "the year" : "these years"} to rate them by.`
      : `${frequencyText(total)} losses per 100 programs (${losses(total.lossCount)} on ${count(programs)} program${programs === 1 ? "" : "s"}).`;
  const paid = total.paidLossCount;
  const zero = zeroLosses(total);
  if (total.lossCount === 0) return `${span}: ${often}`;
  const size =
    paid === 0 || !total.severity
      ? `None was paid: ${zero === 1 ? "it was" : `all ${count(zero)} were`} closed at $0.`
      : `${count(paid)} paid${zero ? ` (${count(zero)} more closed at $0)` : ""}: median ${dollarsOrDash(total.severity.median)}, average ${dollarsOrDash(total.severity.average)}, largest ${dollarsOrDash(total.severity.max)}.`;
  const above = paid === 0 ? [] : total.exceeding.map((entry, i) => ({ entry, column: columns[i] }));
  const passed = above.map(({ entry, column }, i) => {
    const limit = column?.client ? `the client's limit of ${money(entry.limit)}` : money(entry.limit);
    const counted = i === 0 ? `${count(entry.count)} of the ${count(paid)} paid losses` : count(entry.count);
    return `${i === 0 ? "Above" : "above"} ${limit}: ${counted} (${entry.percent}%)`;
  });
  return [`${span}: ${often}`, size, ...(passed.length ? [`${passed.join("; ")}.`] : [])].join(" ");
}
