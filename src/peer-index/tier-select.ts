import type { CoverageSlices, ProgramColumns, TierBounds } from "./snapshot.js";
import { NO_TIER } from "./amount-tiers.js";

/** The program amounts whose order statistics are selected together. */
export const AMOUNTS = ["limit", "premium", "retention", "rpm"] as const;
export type Amount = (typeof AMOUNTS)[number];

/** One amount's selection: how many rows have it, and its exact cents at each wanted position. */
export interface SelectedValues {
  n: number;
  valueAt: Map<number, bigint | number>;
}

/** A coverage's tier bounds of the amounts that keep them (all but the RPM: snapshot.ts). */
export type AmountTierBounds = CoverageSlices["tierBounds"];

/** A row's amount in exact cents. */
export type ExactCents = (amount: Amount, row: number) => bigint | number;

/** Exact cents from the snapshot: an RPM past 2^53 - 1 from largeRpms, every other amount from its column. */
export function exactCents(programs: ProgramColumns, largeRpms: ReadonlyMap<number, bigint>): ExactCents {
  return (amount, row) => (amount === "rpm" ? (largeRpms.get(row) ?? programs.rpm[row]!) : programs[amount][row]!);
}

/** Each amount's table of counts in TierCounts: one entry per tier, NO_TIER last. */
export const TIER_SLOTS = NO_TIER + 1;

/**
 * How many rows of a set fall in each tier (NO_TIER: without the amount), for the four
 * amounts in AMOUNTS order: amount a's count of tier t is at a * TIER_SLOTS + t. One
 * table rather than four: the counting loop then holds one array's base and length in
 * registers instead of four: 3.4-3.5 against 4.3-4.5 ms over the broadest trend's 511K
 * rows at Advisen scale.
 */
export type TierCounts = Int32Array;

/** The counts of the row set being selected from (a trend's period), reused: zero when not in use. */
const rowSetCounts: TierCounts = new Int32Array(AMOUNTS.length * TIER_SLOTS);
/** Bit a of a tier's flag: amount a wants that tier. */
const wanted = new Uint8Array(TIER_SLOTS);

/** Zeroed counts for a row set (selectCountedAmounts leaves them zero again). */
export function tierCounts(): TierCounts {
  return rowSetCounts;
}

/** The first pass on its own (the trend's is fused with matching): counts the rows' tiers of the four amounts side by side. */
export function countAmountTiers(programs: ProgramColumns, rows: Uint32Array, counts: TierCounts): void {
  const { limitTier, premiumTier, retentionTier, rpmTier } = programs;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    counts[limitTier[row]!]!++;
    counts[TIER_SLOTS + premiumTier[row]!]!++;
    counts[2 * TIER_SLOTS + retentionTier[row]!]!++;
    counts[3 * TIER_SLOTS + rpmTier[row]!]!++;
  }
}

/**
 * The exact cents at the given positions (0-based, in ascending order of the amount)
 * among `rows` that have it, for the four amounts at once, from the counts of their
 * 16-bit tiers (amount-tiers.ts) made by a first pass (countAmountTiers, or while
 * matching: peer-filter.ts): the counts tell the tier and the rank within it of every
 * position. A position in a tier of one value (the coverage's `bounds` say so; a
 * popular limit or retention fills most tiers so) is that value; for the others, one
 * more pass gathers the few rows of their tiers, and a sort of each tier's rows by
 * exact value finishes. Leaves the counts zero.
 */
export function selectCountedAmounts(
  programs: ProgramColumns,
  rows: Uint32Array,
  counts: TierCounts,
  positionsOf: (n: number) => number[],
  exact: ExactCents,
  bounds: AmountTierBounds,
): Record<Amount, SelectedValues> {
  const selected = AMOUNTS.map((amount, a) => {
    const count = counts.subarray(a * TIER_SLOTS, (a + 1) * TIER_SLOTS);
    const { n, found } = placesOf(count, rows.length - count[NO_TIER]!, positionsOf);
    const valueAt = new Map<number, bigint | number>();
    const unread = readBounds(found, amount === "rpm" ? undefined : bounds[amount], valueAt);
    return { n, valueAt, unread };
  });
  counts.fill(0);
  selected.forEach(({ unread }, a) => unread.forEach(({ tier }) => (wanted[tier]! |= 1 << a)));
  const gathered = gatherWanted(
    rows,
    AMOUNTS.map((amount) => programs[`${amount}Tier`]),
    selected.map(({ unread }) => unread.length > 0),
  );
  for (const { unread } of selected) for (const { tier } of unread) wanted[tier] = 0;
  return Object.fromEntries(
    AMOUNTS.map((amount, a) => {
      const { n, valueAt, unread } = selected[a]!;
      readRows(unread, gathered[a]!, programs[`${amount}Tier`], (row) => exact(amount, row), valueAt);
      return [amount, { n, valueAt }];
    }),
  ) as Record<Amount, SelectedValues>;
}

/**
 * The value at each found place whose tier holds one value alone (its coverage's
 * `bounds` say so), into `valueAt`; returns the other places, whose rows must be read.
 * Without bounds (the RPM keeps none), every place.
 */
function readBounds(
  found: readonly Place[],
  bounds: TierBounds | undefined,
  valueAt: Map<number, bigint | number>,
): Place[] {
  if (!bounds) return [...found];
  const { least, greatest } = bounds;
  return found.filter(({ position, tier }) => {
    if (least[tier] !== greatest[tier]) return true;
    valueAt.set(position, least[tier]!);
    return false;
  });
}

/**
 * The rows in a wanted tier of each amount that needs its rows read (`reading[a]`). Few
 * are: one branch, rarely taken. When at most two amounts need them (usually the
 * premium and the RPM, whose values rarely repeat), the pass reads only two tier
 * columns: over the broadest trend's 512K rows at Advisen scale, its periods' passes
 * took 7.8 ms in all this way, 9.3 when reading all four.
 */
function gatherWanted(rows: Uint32Array, tiers: readonly Uint16Array[], reading: readonly boolean[]): number[][] {
  const amounts = AMOUNTS.flatMap((_, a) => (reading[a] ? [a] : []));
  if (amounts.length > 2) return gatherFour(rows, tiers);
  const gathered: number[][] = [[], [], [], []];
  if (amounts.length === 0) return gathered;
  // A second amount whose tiers are not wanted keeps the loop's shape: it never hits.
  const [a, b = (amounts[0]! + 1) % AMOUNTS.length] = amounts as [number, number?];
  gatherTwo(rows, tiers[a]!, tiers[b]!, a, b, gathered);
  return gathered;
}

/** gatherWanted for amounts a and b. A function of its own, so the optimizer sees only this loop. */
function gatherTwo(
  rows: Uint32Array,
  tiersOfA: Uint16Array,
  tiersOfB: Uint16Array,
  a: number,
  b: number,
  gathered: number[][],
): void {
  const bitOfA = 1 << a;
  const bitOfB = 1 << b;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const hits = (wanted[tiersOfA[row]!]! & bitOfA) | (wanted[tiersOfB[row]!]! & bitOfB);
    if (hits !== 0) {
      if (hits & bitOfA) gathered[a]!.push(row);
      if (hits & bitOfB) gathered[b]!.push(row);
    }
  }
}

/**
 * gatherWanted for the four amounts. A function of its own, so the optimizer sees only
 * this loop (inside selectCountedAmounts, the code after it was deoptimized again and again).
 */
function gatherFour(rows: Uint32Array, [t0, t1, t2, t3]: readonly Uint16Array[]): number[][] {
  const gathered: number[][] = [[], [], [], []];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const hits =
      (wanted[t0![row]!]! & 1) | (wanted[t1![row]!]! & 2) | (wanted[t2![row]!]! & 4) | (wanted[t3![row]!]! & 8);
    if (hits !== 0) for (let a = 0; a < 4; a++) if (hits & (1 << a)) gathered[a]!.push(row);
  }
  return gathered;
}

const oneAmount = new Int32Array(TIER_SLOTS);

/** Zeroed counts of one amount's tiers, for a pass the caller makes (selectCountedRows). */
export function amountTierCounts(): Int32Array {
  return oneAmount;
}

/**
 * Gathers the rows of a set in the wanted tiers of an amount: those whose tier is 1 in
 * `isWanted` (indexed by tier; `tiers` is the amount's tier column).
 */
export type GatherWanted = (isWanted: Uint8Array, tiers: Uint16Array) => number[];

/**
 * selectCountedAmounts for one amount, among rows[0..count): from the counts of its
 * tiers (made by the caller's own pass over the rows, which counts other things too),
 * the values of one-value tiers from their `bounds`, then one more pass gathers the
 * rows of the other wanted tiers, and a sort of each tier's rows finishes. Leaves the
 * counts zero.
 */
export function selectCountedRows(
  programs: ProgramColumns,
  amount: Amount,
  rows: Uint32Array,
  count: number,
  counts: Int32Array,
  positionsOf: (n: number) => number[],
  exact: ExactCents,
  bounds?: TierBounds,
): SelectedValues {
  return selectByTierCounts(programs, amount, counts, positionsOf, exact, gatherFromRows(rows, count), bounds);
}

/** GatherWanted among rows[0..count): one pass over them. */
export function gatherFromRows(rows: Uint32Array, count: number): GatherWanted {
  return (isWanted, tiers) => {
    const gathered: number[] = [];
    for (let r = 0; r < count; r++) if (isWanted[tiers[rows[r]!]!] === 1) gathered.push(rows[r]!);
    return gathered;
  };
}

/**
 * The exact cents at the given positions among a set's rows that have the amount, from
 * the counts of the set's tiers (one amount's, NO_TIER last), whoever counted them: the
 * counts tell each position's tier and rank there; a tier of one value (its coverage's
 * `bounds` say so) gives its value, and for the others `gather` lists the set's rows of
 * those tiers and a sort finishes (readRows); no rows are gathered when none is needed.
 * Leaves the counts zero.
 */
export function selectByTierCounts(
  programs: ProgramColumns,
  amount: Amount,
  counts: Int32Array,
  positionsOf: (n: number) => number[],
  exact: ExactCents,
  gather: GatherWanted,
  bounds?: TierBounds,
): SelectedValues {
  const tiers = programs[`${amount}Tier`];
  let rowsWithAmount = 0;
  for (let tier = 0; tier < NO_TIER; tier++) rowsWithAmount += counts[tier]!;
  const { n, found } = placesOf(counts, rowsWithAmount, positionsOf);
  counts.fill(0);
  const valueAt = new Map<number, bigint | number>();
  const unread = readBounds(found, bounds, valueAt);
  if (unread.length === 0) return { n, valueAt };
  for (const { tier } of unread) wanted[tier] = 1;
  try {
    readRows(unread, gather(wanted, tiers), tiers, (row) => exact(amount, row), valueAt);
    return { n, valueAt };
  } finally {
    for (const { tier } of unread) wanted[tier] = 0;
  }
}

/**
 * The value at each found place, into `valueAt`: each found tier's gathered rows in
 * value order, and a place's value is that of the row at its rank there. A tier often
 * holds one value alone (a popular limit or retention fills whole tiers), and then its
 * rows need no sort: sorting every gathered row by tier and value took 0.6 ms of the
 * broadest trend's 12.
 */
function readRows(
  found: readonly Place[],
  gathered: number[],
  tiers: Uint16Array,
  exact: (row: number) => bigint | number,
  valueAt: Map<number, bigint | number>,
): void {
  let inOrder: number[] = [];
  let tierInOrder = -1;
  for (const { position, tier, below } of found) {
    if (tier !== tierInOrder) {
      inOrder = inValueOrder(
        gathered.filter((row) => tiers[row] === tier),
        exact,
      );
      tierInOrder = tier;
    }
    valueAt.set(position, exact(inOrder[position - below]!));
  }
}

/** Rows in ascending order of their exact value: as they are when every value is the same. */
function inValueOrder(rows: number[], exact: (row: number) => bigint | number): number[] {
  const first = rows.length > 0 ? exact(rows[0]!) : 0;
  if (rows.every((row) => exact(row) === first)) return rows;
  return rows.sort((a, b) => {
    const x = exact(a);
    const y = exact(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** A wanted position, its tier, and how many rows lie in the tiers below it. */
interface Place {
  position: number;
  tier: number;
  below: number;
}

/** Each wanted position's place, from the rows' counts per tier. */
function placesOf(count: Int32Array, n: number, positionsOf: (n: number) => number[]): { n: number; found: Place[] } {
  const positions = [...new Set(positionsOf(n))].filter((p) => p >= 0 && p < n).sort((a, b) => a - b);
  const found: Place[] = [];
  let below = 0;
  for (let tier = 0, w = 0; w < positions.length; tier++) {
    const inTier = count[tier]!;
    while (w < positions.length && positions[w]! < below + inTier)
      found.push({ position: positions[w++]!, tier, below });
    below += inTier;
  }
  return { n, found };
}
