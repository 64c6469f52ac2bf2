import { createSeededRandom } from "../../helpers/seeded-random.js";
import type { PeerClass } from "../peer/classes.js";
import type { ApiCall } from "../peer/operations.js";
import { baseVariant, createVariants } from "../peer/variants.js";
import type { LookupSamples } from "./lookup-samples.js";
import { SOAK_OPERATIONS } from "./operations.js";

export interface MixSettings {
  groups: PeerClass[];
  lookups: LookupSamples;
  seed: string;
}

export interface MixedRequest {
  operation: string;
  call: ApiCall;
}

export interface RequestMix {
  next(): MixedRequest;
}

/**
 * Requests of one in this many are a group's base request, the same every time: a
 * dashboard asked again is answered from the server's answer cache, and that path
 * (ETags, kept bytes, evictions) must hold over hours too. The rest differ each time
 * (peer/variants.ts), so most analytics are computed.
 */
const REPEATED_ONE_IN = 4;

/**
 * The soak's requests, in an order that covers every operation × peer group evenly:
 * the n-th request is operation n mod 12 on group (n div 12) mod groups. Seeded, so two
 * runs send the same requests (the interleaving of 32 clients aside).
 */
export function createRequestMix(settings: MixSettings): RequestMix {
  const random = createSeededRandom(settings.seed);
  const { groups, lookups } = settings;
  const variants = groups.map((group, i) => createVariants(group, i + 1));
  let n = 0;
  return {
    next() {
      const operation = SOAK_OPERATIONS[n % SOAK_OPERATIONS.length]!;
      const g = Math.floor(n / SOAK_OPERATIONS.length) % groups.length;
      n++;
      const peerClass = groups[g]!;
      const variant = random.int(REPEATED_ONE_IN) === 0 ? baseVariant(peerClass) : variants[g]!.next();
      const call = operation.call({
        peerClass,
        variant,
        companyId: random.pick(lookups.companyIds),
        lossEventId: random.pick(lookups.lossEventIds),
        nameWord: random.pick(lookups.nameWords),
        shape: random.int(1_000),
      });
      return { operation: operation.name, call };
    },
  };
}
