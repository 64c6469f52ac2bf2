import { isAmount, type PeerGroup } from "../state/peer-group.js";

/** The limits the loss experience is asked about, and whose the first is. */
export interface LossExperienceAsk {
  /** Decimal text, in the order the answer's `exceeding` entries come back. */
  limits: string[];
  /** The first limit is the client's; the rest are the broker's others. */
  clientLimit: boolean;
}

/**
 * The client's limit first, then the other limits the broker typed that are amounts above
 * $0 (SEMANTICS.md 15 refuses the rest): one a link got wrong is marked in its field and
 * left out, and the panel shows the others' counts meanwhile rather than a refusal.
 */
export function lossExperienceAsk(group: PeerGroup): LossExperienceAsk {
  const positive = (text: string) => isAmount(text) && Number(text) > 0;
  const clientLimit = positive(group.limit);
  return {
    limits: [...(clientLimit ? [group.limit.trim()] : []), ...group.otherLimits.filter(positive).map((t) => t.trim())],
    clientLimit,
  };
}
