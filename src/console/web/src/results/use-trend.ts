import { getMarketTrend } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import type { MarketTrend } from "../api/types.js";
import { missingInputs, serializePeerGroup, withoutClientOrWindow, type PeerGroup } from "../state/peer-group.js";
import { useAnswer, type KeyedAnswer } from "./use-answer.js";

/**
 * The group's market trend. It takes neither the window nor the client's amounts
 * (SEMANTICS.md 13), so typing a limit or moving the window does not ask for it again,
 * and the period switch asks for nothing else; nor do the loss experience's settings.
 */
export function useTrend(api: ApiClient, group: PeerGroup): KeyedAnswer<MarketTrend> {
  const key =
    missingInputs(group).length === 0
      ? serializePeerGroup({ ...withoutClientOrWindow(group), periodMonths: group.periodMonths })
      : null;
  return useAnswer(key, (signal) => getMarketTrend(api, group, signal));
}
