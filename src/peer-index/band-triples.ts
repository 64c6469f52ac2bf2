import { bandOfCents, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { NO_BAND } from "./snapshot.js";

/**
 * A program's three bands (SEMANTICS.md section 4) as one number, its band triple:
 * an assessment counts one table entry a row instead of three (program-figures.ts),
 * and the disclosure rule's counts read which amounts a row has from it
 * (contributor-counts.ts). Each amount has its bands and one slot more for none
 * (NULL): 19 x 19 x 18 triples, in two bytes a program where the three bands took three.
 */
const AMOUNTS = ["limit", "premium", "retention"] as const;
type BandedAmount = (typeof AMOUNTS)[number];
const SCALES = { limit: LIMIT_BANDS, premium: PREMIUM_BANDS, retention: RETENTION_BANDS };
const SLOTS = AMOUNTS.map((amount) => SCALES[amount].labels.length + 1) as [number, number, number];

export const BAND_TRIPLES = SLOTS[0] * SLOTS[1] * SLOTS[2];

/** An amount's slot: its band, or the scale's slot for none (NaN). */
function slotOf(a: number, cents: number): number {
  return Number.isNaN(cents) ? SLOTS[a]! - 1 : bandOfCents(SCALES[AMOUNTS[a]!], cents);
}

/** The triple of three amounts in cents (NaN: none). */
export function bandTriple(limit: number, premium: number, retention: number): number {
  return (slotOf(0, limit) * SLOTS[1] + slotOf(1, premium)) * SLOTS[2] + slotOf(2, retention);
}

/** Each triple's band of each amount (NO_BAND for none), and which amounts it has (limit 4 + premium 2 + retention 1). */
export const TRIPLE_BANDS = {
  limit: new Uint8Array(BAND_TRIPLES),
  premium: new Uint8Array(BAND_TRIPLES),
  retention: new Uint8Array(BAND_TRIPLES),
};
export const AMOUNTS_HELD = new Uint8Array(BAND_TRIPLES);
for (let triple = 0; triple < BAND_TRIPLES; triple++) {
  const slots = [
    Math.floor(triple / (SLOTS[1] * SLOTS[2])),
    Math.floor(triple / SLOTS[2]) % SLOTS[1],
    triple % SLOTS[2],
  ];
  const bands = slots.map((slot, a) => (slot === SLOTS[a]! - 1 ? NO_BAND : slot));
  TRIPLE_BANDS.limit[triple] = bands[0]!;
  TRIPLE_BANDS.premium[triple] = bands[1]!;
  TRIPLE_BANDS.retention[triple] = bands[2]!;
  AMOUNTS_HELD[triple] = bands.reduce((held, band, a) => held | (+(band !== NO_BAND) << (2 - a)), 0);
}

/** One amount's band counts (SEMANTICS.md section 4) from counts of rows per band triple. */
export function bandCountsOfTriples(triples: Int32Array, amount: BandedAmount): number[] {
  const bandCounts = new Array<number>(SCALES[amount].labels.length).fill(0);
  const bands = TRIPLE_BANDS[amount];
  for (let triple = 0; triple < BAND_TRIPLES; triple++) {
    const band = bands[triple]!;
    if (band !== NO_BAND) bandCounts[band]! += triples[triple]!;
  }
  return bandCounts;
}
