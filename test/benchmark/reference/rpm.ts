import { roundRatio, roundRatioTo, scaledToNumber, toCents, type Ratio } from "./exact.js";
import type { ReferenceDataset, ReferenceRequest, ReferenceRpm } from "./model-types.js";
import { peerPrograms } from "./peer-rows.js";
import { maximum, percentileRank, quantile } from "./statistics.js";
import { money, ordinal } from "./text.js";

/** round(premium * 1,000,000 / limit, 2) in cents, from cents; limit > 0. */
export function rpmCents(premiumCents: bigint, limitCents: bigint): bigint {
  // premium * 1e6 / limit dollars = (p/100) * 1e6 / (l/100) = p * 1e6 / l; in cents * 100.
  const ratio: Ratio = { num: premiumCents * 1_000_000n, den: limitCents };
  return roundRatioTo(ratio, 2);
}

/** The RPM figures (SEMANTICS.md section 7). */
export function rpmDistribution(dataset: ReferenceDataset, request: ReferenceRequest, asOf: string): ReferenceRpm {
  const rpms: bigint[] = [];
  for (const program of peerPrograms(dataset, request, asOf, "request")) {
    const premium = program.premium ?? "";
    const limit = program.limit ?? "";
    if (premium === "" || limit === "") continue;
    const limitCents = toCents(limit);
    if (limitCents <= 0n) continue;
    rpms.push(rpmCents(toCents(premium), limitCents));
  }
  // Quantiles of cents, rounded to cents (2 decimals of dollars).
  const quartile = (k: bigint): number => scaledToNumber(roundRatio(quantile(rpms, k, 4n)), 2);

  const premium = request.premium === undefined || request.premium === null ? 0n : toCents(request.premium);
  const limit = request.limit === undefined || request.limit === null ? 0n : toCents(request.limit);
  const clientBar = limit === 0n ? 0n : rpmCents(premium, limit);
  const rank = percentileRank(rpms, clientBar);
  return {
    firstQuartile: quartile(1n),
    median: quartile(2n),
    fourthQuartile: quartile(3n),
    maxRpm: scaledToNumber(maximum(rpms), 2),
    clientBar: scaledToNumber(clientBar, 2),
    nthPercent: scaledToNumber(roundRatioTo(rank, 2), 2),
    chartDescription: `The selected company's Rate Per Million(RPM) of ${money(clientBar)} puts it in the ${ordinal(roundRatio(rank))} percentile in relation to its peers.`,
  };
}
