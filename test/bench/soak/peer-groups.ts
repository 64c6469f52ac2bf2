import type { PeerClass } from "../peer/classes.js";
import { centsText } from "../peer/decimal-text.js";

/** How many single sectors of the broad class join the mix. */
const SECTORS = 4;

/**
 * The peer groups the soak's analytics rotate through: the three classes found on
 * the data (peer/classes.ts), and groups between them, so the index scans columns
 * of every width and the answer cache sees many keys: the narrow NAICS over every
 * line of business, then over every revenue, and a few sectors of the broad class
 * alone. A group over every revenue has no revenue above its high bound, so
 * peer/variants.ts may move that bound freely.
 */
export function soakPeerGroups(classes: readonly PeerClass[]): PeerClass[] {
  const named = (name: PeerClass["name"]) => {
    const found = classes.find((c) => c.name === name);
    if (!found) throw new Error(`no ${name} class on this data`);
    return found;
  };
  const narrow = named("narrow");
  const broad = named("broad");
  const everyRevenue = { exposureRangeLow: 0n, exposureRangeHigh: broad.exposureRangeHigh, nextRevenueAbove: null };
  return [
    ...classes,
    { ...narrow, lineOfBusinessId: [0] },
    { ...narrow, lineOfBusinessId: [0], ...everyRevenue },
    ...broad.naics.slice(0, SECTORS).map((code) => ({ ...broad, naics: [code] })),
  ];
}

/** A short label for a group: its NAICS codes (count beyond two), lines of business, revenue band unless every revenue. */
export function groupLabel(c: PeerClass): string {
  const naics = c.naics.length > 2 ? `${c.naics.length} NAICS` : c.naics.join("+");
  const band =
    c.exposureRangeLow > 0n ? ` revenues ${centsText(c.exposureRangeLow)}-${centsText(c.exposureRangeHigh)}` : "";
  return `${naics} LOB ${c.lineOfBusinessId.join("+")}${band}`;
}
