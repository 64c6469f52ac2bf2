import type { ReferenceData } from "../api/types.js";
import { money, count } from "../figures/format.js";
import { naicsLabel } from "../reference/reference-names.js";
import { DEFAULT_NEWEST, DEFAULT_OLDEST, type PeerGroup } from "../state/peer-group.js";

/**
 * The ways this group can still be widened, in a broker's words: only what is not already
 * at its widest (issue 27: no "widen the window" when it is 24 months to today). A plain
 * list of sentences, so peer-group suggestions (issue 30) can take its place.
 */
export function widenOptions(group: PeerGroup, reference: ReferenceData | null): string[] {
  const options: string[] = [];
  const subsectors = group.naics.filter((code) => code.length === 3);
  if (subsectors.length > 0)
    options.push(
      `Use the 2-digit sector instead of the subsector ${subsectors.map((code) => naicsLabel(reference, code)).join(", ")}.`,
    );
  options.push("Add NAICS sectors of similar businesses.");
  const unit = group.exposureType === "Employees" ? (v: string) => count(Number(v)) : money;
  options.push(
    `Widen the exposure range (now ${group.exposureType} from ${unit(group.exposureRangeLow)} to ${unit(group.exposureRangeHigh)}).`,
  );
  if (group.organizationType.length > 0) options.push("Tick more organization types, or none for all of them.");
  if (group.lineOfBusinessId.length > 0)
    options.push("Untick lines of business: none ticked is every line of the coverage.");
  if (group.oldestTrailing < DEFAULT_OLDEST)
    options.push(`Start the window further back (now ${group.oldestTrailing} months, at most ${DEFAULT_OLDEST}).`);
  if (group.newestTrailing > DEFAULT_NEWEST)
    options.push(`End the window today (now ${group.newestTrailing} months ago).`);
  return options;
}
