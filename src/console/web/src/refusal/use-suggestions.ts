import { suggestPeerGroups } from "../api/benchmark-api.js";
import type { ApiClient } from "../api/client.js";
import type { PeerGroupSuggestions } from "../api/types.js";
import { useAnswer, type KeyedAnswer } from "../results/use-answer.js";
import { serializePeerGroup, withoutPanelSettings, type PeerGroup } from "../state/peer-group.js";

/** The API's own idea of enough programs (SEMANTICS.md 14's default). */
const API_MIN_PROGRAMS = 30;

/** Suggestions are asked for groups of at least this many programs: never one the console would call thin. */
export const suggestionMinPrograms = (thinGroupPrograms: number) => Math.max(API_MIN_PROGRAMS, thinGroupPrograms);

/**
 * Wider groups for a group that is empty, thin or refused (`wanted`); nothing is asked
 * otherwise. The client's amounts are not part of the question: only the group is.
 */
export function useSuggestions(
  api: ApiClient,
  group: PeerGroup,
  wanted: boolean,
  thinGroupPrograms: number,
): KeyedAnswer<PeerGroupSuggestions> {
  const minPrograms = suggestionMinPrograms(thinGroupPrograms);
  const key = wanted
    ? `${serializePeerGroup({ ...withoutPanelSettings(group), companyId: "", amountsCoverageId: "", limit: "", premium: "", retention: "" })}#${minPrograms}`
    : null;
  return useAnswer(key, (signal) => suggestPeerGroups(api, group, minPrograms, signal));
}
