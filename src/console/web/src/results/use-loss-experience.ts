import { getLossExperience } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import type { LossExperience } from "../api/types.js";
import { missingInputs, serializePeerGroup, withoutClientOrWindow, type PeerGroup } from "../state/peer-group.js";
import { lossExperienceAsk, type LossExperienceAsk } from "./loss-experience-ask.js";
import { useAnswer, type KeyedAnswer } from "./use-answer.js";

/** An answer with the limits it was asked about: the old answer stays drawn with its own columns while the next loads. */
export interface AskedLossExperience {
  experience: LossExperience;
  ask: LossExperienceAsk;
}

/**
 * The group's loss experience. It takes the group without its window, its years and the
 * limits to count paid losses above (SEMANTICS.md 15): a premium, a retention, the window
 * or the trend's periods do not ask for it again.
 */
export function useLossExperience(api: ApiClient, group: PeerGroup): KeyedAnswer<AskedLossExperience> {
  const ask = lossExperienceAsk(group);
  const key =
    missingInputs(group).length === 0
      ? `${serializePeerGroup(withoutClientOrWindow(group))}#years=${group.years}#limits=${ask.limits.join(",")}`
      : null;
  return useAnswer(key, (signal) =>
    getLossExperience(api, group, ask.limits, signal).then(({ data }) => ({ data: { experience: data, ask } })),
  );
}
