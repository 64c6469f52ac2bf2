import type { LimitAdequacy } from "../api/types.js";
import { count, money } from "./format.js";

/**
 * The headline, for none, one and many cases (issue 27): never "0% of the peers' 0 loss
 * cases" or "the peers' 1 loss cases".
 */
export function adequacyHeadline(adequacy: LimitAdequacy): string {
  const n = adequacy.listOfCases.length;
  const limit = money(adequacy.clientLimit);
  if (n === 0) return `The peers have no loss cases to set against the client's limit of ${limit}.`;
  if (n === 1)
    return `The peers' one loss case, ${money(adequacy.listOfCases[0]!.lossAmount)}, is ${adequacy.percentCovered === 100 ? "within" : "above"} the client's limit of ${limit}.`;
  return `${adequacy.percentCovered}% of the peers' ${count(n)} loss cases are within the client's limit of ${limit}.`;
}
