import type { PeerGroupSuggestion, SuggestedPeerGroup } from "../api/types.js";
import { count, money } from "../figures/format.js";
import type { PeerGroup } from "../state/peer-group.js";

/** "a", "a and b", "a, b and c". */
const listed = (parts: readonly string[]) =>
  parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)!}`;

function exposureWords(group: SuggestedPeerGroup): string {
  if (group.exposureType === "Employees")
    return `${count(group.exposureRangeLow)} to ${count(group.exposureRangeHigh)} employees`;
  const name = group.exposureType === "Market Cap" ? "market cap" : "revenues";
  return `${name} ${money(group.exposureRangeLow)} to ${money(group.exposureRangeHigh)}`;
}

/**
 * A suggestion as the button says it: "Widen to NAICS 52 and every line of business: 412
 * programs". Each move names where it takes the group (the exposure moves, however many,
 * as the range they end at).
 */
export function suggestionText(suggestion: PeerGroupSuggestion): string {
  const g = suggestion.peerGroup;
  const parts: string[] = [];
  if (suggestion.moves.includes("naics")) parts.push(`NAICS ${g.naics.join(", ")}`);
  if (suggestion.moves.includes("exposure")) parts.push(exposureWords(g));
  if (suggestion.moves.includes("lineOfBusiness")) parts.push("every line of business");
  if (suggestion.moves.includes("organizationType")) parts.push("every organization type");
  if (suggestion.moves.includes("window")) parts.push("programs of the last 24 months");
  const programs = `${count(suggestion.programCount)} program${suggestion.programCount === 1 ? "" : "s"}`;
  return `Widen to ${listed(parts)}: ${programs}`;
}

/** Money as the builder's amount text: cents at most, no exponent, no separators. */
const amountText = (value: number) => (Number.isInteger(value) ? value.toFixed(0) : value.toFixed(2).replace(/0$/, ""));

/**
 * The builder's change that applies a suggestion: the peer group only. The coverage and
 * exposure type never move, and the client (company and amounts) stays the client's.
 */
export function suggestionPatch(group: SuggestedPeerGroup): Partial<PeerGroup> {
  return {
    naics: [...group.naics],
    lineOfBusinessId: group.lineOfBusinessId.filter((id) => id !== 0).map(String),
    exposureRangeLow: amountText(group.exposureRangeLow),
    exposureRangeHigh: amountText(group.exposureRangeHigh),
    organizationType: group.organizationType.filter((code) => code.toLowerCase() !== "all"),
    oldestTrailing: group.oldestTrailing,
    newestTrailing: group.newestTrailing,
  };
}
