import type { LimitAdequacy } from "../api/types.js";
import { count, money } from "./format.js";
import { paidLosses } from "./paid-losses.js";

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/**
 * The headline, for none, one and many cases (issue 27): never "0% of the peers' 0 loss
 * cases" or "the peers' 1 loss cases". With cases closed at $0, the paid losses lead and
 * the API's figure over every case follows, labelled (issue 50): "25 paid losses (10
 * closed at $0): 60% within the client's limit of $5,000,000; all 35 cases: 71%."
 */
export function adequacyHeadline(adequacy: LimitAdequacy): string {
  const n = adequacy.listOfCases.length;
  const limit = money(adequacy.clientLimit);
  if (n === 0) return `The peers have no loss cases to set against the client's limit of ${limit}.`;
  const { zero, paid, paidWithin, percentPaidWithin } = paidLosses(adequacy);
  if (zero > 0) {
    const closed = `${plural(zero, "case", "cases")} closed at $0`;
    if (paid === 0) return `The peers' ${plural(n, "loss case", "loss cases")} all closed at $0: no loss was paid.`;
    const within =
      paid === 1
        ? `it is ${paidWithin === 1 ? "within" : "above"} the client's limit of ${limit}`
        : `${percentPaidWithin}% within the client's limit of ${limit}`;
    return `${plural(paid, "paid loss", "paid losses")} (${closed}): ${within}; all ${count(n)} cases: ${adequacy.percentCovered}%.`;
  }
  if (n === 1)
    return `The peers' one loss case, ${money(adequacy.listOfCases[0]!.lossAmount)}, is ${adequacy.percentCovered === 100 ? "within" : "above"} the client's limit of ${limit}.`;
  return `${adequacy.percentCovered}% of the peers' ${count(n)} loss cases are within the client's limit of ${limit}.`;
}
