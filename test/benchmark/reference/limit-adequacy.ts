import { roundRatio, scaledToNumber, toCents } from "./exact.js";
import type { ReferenceDataset, ReferenceLimitAdequacy, ReferenceRequest } from "./model-types.js";
import { peerLosses, peerPrograms } from "./peer-rows.js";
import { maximum, quantile } from "./statistics.js";

/**
 * Limit adequacy (SEMANTICS.md section 9). The GET form passes `lossYears: "none"`,
 * the POST form "filter". medianLimit always uses the default window.
 */
export function limitAdequacy(
  dataset: ReferenceDataset,
  request: ReferenceRequest,
  asOf: string,
  lossYears: "filter" | "none",
): ReferenceLimitAdequacy {
  const clientText =
    request.clientLimit !== undefined && request.clientLimit !== null ? request.clientLimit : (request.limit ?? null);
  const clientLimit = clientText === null ? 0n : toCents(clientText);

  const limits: bigint[] = [];
  for (const program of peerPrograms(dataset, request, asOf, "default")) {
    const limit = program.limit ?? "";
    if (limit !== "") limits.push(toCents(limit));
  }
  const medianCents = quantile(limits, 1n, 2n);
  const medianLimit = roundRatio({ num: medianCents.num, den: medianCents.den * 100n });

  const cases = peerLosses(dataset, request, lossYears).map((loss) => ({
    id: BigInt(loss.loss_event_id ?? ""),
    amount: BigInt(loss.total_amount ?? ""),
  }));
  cases.sort((a, b) =>
    a.amount !== b.amount ? (a.amount < b.amount ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );

  const total = BigInt(cases.length);
  let covered = 0n;
  let sum = 0n;
  for (const c of cases) {
    if (c.amount * 100n <= clientLimit) covered++;
    sum += c.amount;
  }
  return {
    clientLimit: scaledToNumber(clientLimit, 2),
    medianLimit: Number(medianLimit),
    percentCovered: total === 0n ? 0 : Number(roundRatio({ num: 100n * covered, den: total })),
    maxLoss: Number(maximum(cases.map((c) => c.amount))),
    averageLoss: total === 0n ? 0 : Number(roundRatio({ num: sum, den: total })),
    listOfCases: cases.map((c) => ({ lossEventID: Number(c.id), lossAmount: Number(c.amount) })),
  };
}
