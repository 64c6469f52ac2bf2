import type { ComponentChildren } from "preact";
import type { PeerGroupSuggestions } from "../api/types.js";
import type { KeyedAnswer } from "../results/use-answer.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";
import { suggestionPatch, suggestionText } from "./suggestion-text.js";

interface SuggestionListProps {
  suggestions: KeyedAnswer<PeerGroupSuggestions>;
  update: UpdatePeerGroup;
  minPrograms: number;
  /** Said when the API finds no wider group, or cannot be asked: the ways to widen by hand. */
  fallback: ComponentChildren;
}

/**
 * Wider peer groups the API found (SEMANTICS.md 14), each a button that applies it: the URL
 * changes as for any edit, so back returns to the group before. Only the group changes.
 */
export function SuggestionList({ suggestions, update, minPrograms, fallback }: SuggestionListProps) {
  const list = suggestions.answer?.data.suggestions ?? [];
  if (suggestions.loading && list.length === 0) {
    return (
      <p class="loading no-print" role="status" data-testid="suggestions-loading">
        Looking for wider peer groups…
      </p>
    );
  }
  if (list.length === 0) {
    return (
      <div data-testid="suggestions-none">
        {suggestions.answer ? (
          <p>No wider group of at least {minPrograms} programs was found by widening this one step by step.</p>
        ) : null}
        {fallback}
      </div>
    );
  }
  return (
    <div class="suggestions no-print" data-testid="suggestions" aria-busy={suggestions.loading}>
      <p>Wider peer groups of at least {minPrograms} programs:</p>
      <ul>
        {list.map((s) => (
          <li key={s.moves.join(",")}>
            <button
              type="button"
              class="button suggestion"
              data-testid="suggestion"
              data-moves={s.moves.join(",")}
              onClick={() => {
                update(suggestionPatch(s.peerGroup));
                // The button goes with the group it widened: focus goes to the report it opened, not the page's body.
                document.getElementById("report-title")?.focus();
              }}
            >
              {suggestionText(s)}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
