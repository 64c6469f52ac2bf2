import { Decimal, roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { SelectedAmounts } from "../benchmark/peer-engine.js";
import type { AmountStatistics } from "../benchmark/peer-statistics.js";
import type { RankCounts } from "../benchmark/percentile-rank.js";
import { quantileIndex, quantileOfCents, type QuantileLevel } from "../benchmark/quantile.js";
import { comparable, type CoverageSlices, type ProgramColumns, type TierBounds } from "./snapshot.js";
import { TIERS } from "./amount-tiers.js";
import { BAND_TRIPLES, bandCountsOfTriples } from "./band-triples.js";
import { scratchRows } from "./scratch.js";
import {
  amountTierCounts,
  exactCents,
  gatherFromRows,
  selectByTierCounts,
  selectCountedRows,
  TIER_SLOTS,
  type GatherWanted,
} from "./tier-select.js";

/**
 * Figures over the matched program rows (`rows[0..count)`), each one pass: the
 * distributions and ranks of an assessment, the RPM statistics, the median limit.
 * Amounts are integer cents; the selected amounts arrive as exact cents, clamped to
 * 2^53, beyond every stored value (an index coverage holds none above 2^53 - 1).
 */

/** A request amount as comparable cents. */
function centsOf(amount: Decimal): number {
  return comparable(amount.times(100));
}

/**
 * Band counts and rank counts of the three amounts (SEMANTICS.md sections 4-6), with
 * few of the rows' amounts read. One pass counts the rows' band triples
 * (band-triples.ts: one table entry a row) and places each amount of a row by its
 * tier: a tier whose greatest value is below the client's amount holds only rows
 * below it, one whose least value is above holds none below or equal
 * (amount-tiers.ts). The client's amount falls in one tier, or a few when many rows
 * tie with it; only rows in those are listed (without a branch: whether a row is one
 * is as good as random), and a second, short pass compares their amounts. Reading and
 * comparing every row's three amounts made the broadest assessment a fifth slower
 * (5.4-5.6 ms against 4.5 in process at Advisen scale). A row without an amount has
 * no band and no tier (NO_TIER is past every tier's run).
 */
export function assessmentFigures(
  columns: ProgramColumns,
  bounds: CoverageSlices["tierBounds"],
  rows: Uint32Array,
  count: number,
  selected: SelectedAmounts,
) {
  const tally = emptyPlacingTally();
  placeRows(columns, placingOf(bounds, selected), rows, count, tally);
  return figuresOfTally(tally);
}

type Amount = "limit" | "premium" | "retention";
const AMOUNTS: readonly Amount[] = ["limit", "premium", "retention"];

/** A run of tiers: from `first`, `width` + 1 long (tiersAround). */
interface TierRun {
  first: number;
  width: number;
}

/** What rows are placed against, in plain data (it crosses to the scan thread): the client's amounts in cents and their runs of tiers. */
export interface Placing {
  cents: Record<Amount, number>;
  runs: Record<Amount, TierRun>;
}

export function placingOf(bounds: CoverageSlices["tierBounds"], selected: SelectedAmounts): Placing {
  const cents = {
    limit: centsOf(selected.limit),
    premium: centsOf(selected.premium),
    retention: centsOf(selected.retention),
  };
  const runs = {
    limit: tiersAround(bounds.limit, cents.limit),
    premium: tiersAround(bounds.premium, cents.premium),
    retention: tiersAround(bounds.retention, cents.retention),
  };
  return { cents, runs };
}

/**
 * Rows placed, summed: how many, their band triples, and per amount how many are below
 * and equal to the client's. Sums over any split of the rows: each thread of a shared
 * assessment (placing-scan.ts) fills its own, and they are added.
 */
export interface PlacingTally {
  count: number;
  triples: Int32Array;
  below: Record<Amount, number>;
  equal: Record<Amount, number>;
}

export function emptyPlacingTally(): PlacingTally {
  return {
    count: 0,
    triples: new Int32Array(BAND_TRIPLES),
    below: { limit: 0, premium: 0, retention: 0 },
    equal: { limit: 0, premium: 0, retention: 0 },
  };
}

export function clearPlacingTally(tally: PlacingTally): void {
  tally.count = 0;
  tally.triples.fill(0);
  for (const amount of AMOUNTS) tally.below[amount] = tally.equal[amount] = 0;
}

export function addPlacingTallies(into: PlacingTally, from: PlacingTally): void {
  into.count += from.count;
  for (let t = 0; t < BAND_TRIPLES; t++) into.triples[t]! += from.triples[t]!;
  for (const amount of AMOUNTS) {
    into.below[amount] += from.below[amount];
    into.equal[amount] += from.equal[amount];
  }
}

/** Places `rows[0..count)` against the client's amounts, adding them to `tally`. */
export function placeRows(
  columns: ProgramColumns,
  placing: Placing,
  rows: Uint32Array,
  count: number,
  tally: PlacingTally,
): void {
  const nearRows = scratchRows("gathered", count);
  const placed = placeByTiers(columns, rows, count, placing.runs, tally.triples, nearRows);
  tally.count += count;
  for (const amount of AMOUNTS) {
    const near = compareNear(
      columns[amount],
      columns[`${amount}Tier`],
      placing.runs[amount],
      nearRows,
      placed.near,
      placing.cents[amount],
    );
    tally.below[amount] += placed.below[amount] + near.below;
    tally.equal[amount] += near.equal;
  }
}

/** The three amounts' band counts and ranks of the rows a tally holds. */
export function figuresOfTally(tally: PlacingTally): Record<Amount, AmountStatistics> {
  const statistics = (amount: Amount): AmountStatistics => {
    const bandCounts = bandCountsOfTriples(tally.triples, amount);
    return {
      bandCounts,
      rank: {
        below: tally.below[amount],
        equal: tally.equal[amount],
        total: bandCounts.reduce((sum, n) => sum + n, 0),
      },
    };
  };
  return { limit: statistics("limit"), premium: statistics("premium"), retention: statistics("retention") };
}

/**
 * The first pass of placeRows: counts the rows' band triples and, per amount, the rows
 * in tiers before its run; lists the rows in any amount's run in `nearRows`. A function
 * of its own, so the optimizer sees only this loop.
 */
function placeByTiers(
  { bandTriple, limitTier, premiumTier, retentionTier }: ProgramColumns,
  rows: Uint32Array,
  count: number,
  runs: Record<Amount, TierRun>,
  triples: Int32Array,
  nearRows: Uint32Array,
): { near: number; below: Record<Amount, number> } {
  const { first: lFirst, width: lWidth } = runs.limit;
  const { first: pFirst, width: pWidth } = runs.premium;
  const { first: tFirst, width: tWidth } = runs.retention;
  let near = 0;
  let limitBelow = 0;
  let premiumBelow = 0;
  let retentionBelow = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    triples[bandTriple[i]!]!++;
    const lt = limitTier[i]!;
    const pt = premiumTier[i]!;
    const tt = retentionTier[i]!;
    limitBelow += +(lt < lFirst);
    premiumBelow += +(pt < pFirst);
    retentionBelow += +(tt < tFirst);
    // A tier is in a run when its distance past the run's first, unsigned, is within the run.
    nearRows[near] = i;
    near += +((lt - lFirst) >>> 0 <= lWidth) | +((pt - pFirst) >>> 0 <= pWidth) | +((tt - tFirst) >>> 0 <= tWidth);
  }
  return { near, below: { limit: limitBelow, premium: premiumBelow, retention: retentionBelow } };
}

/** Among the listed rows, those of one amount's run of tiers: how many are below and equal to the client's amount. */
function compareNear(
  values: Float64Array,
  tiers: Uint16Array,
  { first, width }: TierRun,
  nearRows: Uint32Array,
  nearCount: number,
  x: number,
): { below: number; equal: number } {
  let below = 0;
  let equal = 0;
  for (let r = 0; r < nearCount; r++) {
    const i = nearRows[r]!;
    const inRun = +((tiers[i]! - first) >>> 0 <= width);
    below += +(values[i]! < x) & inRun;
    equal += +(values[i]! === x) & inRun;
  }
  return { below, equal };
}

/**
 * The run of tiers from `first`, `width` + 1 long, whose rows may be below, equal to or
 * above the amount: every tier before it is below, every one after above (width -1:
 * the run is empty).
 */
function tiersAround({ least, greatest }: TierBounds, amount: number): TierRun {
  let first = 0;
  while (first < TIERS && greatest[first]! < amount) first++;
  let last = TIERS - 1;
  while (last >= first && least[last]! > amount) last--;
  return { first, width: last - first };
}

export interface RpmFiguresOfRows {
  firstQuartile: Decimal;
  median: Decimal;
  fourthQuartile: Decimal;
  maxRpm: Decimal;
  rank: RankCounts;
}

const QUARTILES: QuantileLevel[] = ["0.25", "0.5", "0.75"];

/** The client's RPM in cents, as rows are compared with it (plain data: it crosses to the scan thread). */
export interface ClientRpm {
  /** Comparable with the column (clamped to 2^53). */
  cents: number;
  /** Exact, for the rare RPM above 2^53 - 1 cents (largeRpms). */
  exact: bigint;
}

export function clientRpmOf(clientRpm: Decimal): ClientRpm {
  return { cents: centsOf(clientRpm), exact: BigInt(clientRpm.times(100).toFixed(0)) };
}

/**
 * Rows' RPMs counted, summed: per RPM tier (TIER_SLOTS, NO_TIER last), and how many are
 * below and equal to the client's. Sums over any split of the rows, as PlacingTally:
 * each thread of a shared RPM scan (rpm-scan.ts) fills its own, and they are added.
 */
export interface RpmTally {
  tiers: Int32Array;
  below: number;
  equal: number;
}

export function emptyRpmTally(): RpmTally {
  return { tiers: new Int32Array(TIER_SLOTS), below: 0, equal: 0 };
}

export function clearRpmTally(tally: RpmTally): void {
  tally.tiers.fill(0);
  tally.below = tally.equal = 0;
}

export function addRpmTallies(into: RpmTally, from: RpmTally): void {
  for (let t = 0; t < TIER_SLOTS; t++) into.tiers[t]! += from.tiers[t]!;
  into.below += from.below;
  into.equal += from.equal;
}

/**
 * Counts `rows[0..count)` into `tally`: each row's RPM tier, and whether its RPM is
 * below or equal to the client's. An RPM above 2^53 - 1 cents (a tiny limit) is
 * compared exactly, in BigInt.
 */
export function tallyRpms(
  { rpm, rpmTier }: ProgramColumns,
  largeRpms: ReadonlyMap<number, bigint>,
  rows: Uint32Array,
  count: number,
  client: ClientRpm,
  tally: RpmTally,
): void {
  const { tiers } = tally;
  const x = client.cents;
  let below = 0;
  let equal = 0;
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    tiers[rpmTier[i]!]!++;
    const value = rpm[i]!;
    if (value > Number.MAX_SAFE_INTEGER) {
      const exact = largeRpms.get(i)!;
      if (exact < client.exact) below++;
      else if (exact === client.exact) equal++;
    } else {
      // Counted without branches, as in assessmentFigures; NaN (no RPM) is neither.
      below += +(value < x);
      equal += +(value === x);
    }
  }
  tally.below += below;
  tally.equal += equal;
}

/**
 * RPM quartiles (rounded to cents), the largest RPM, and the client's rank (SEMANTICS.md
 * section 7) of the rows matched into `rows[0..count)`: one pass counts them
 * (tallyRpms), then the gathering pass of tier-select.ts.
 */
export function rpmFiguresOfRows(
  columns: ProgramColumns,
  largeRpms: ReadonlyMap<number, bigint>,
  rows: Uint32Array,
  count: number,
  clientRpm: Decimal,
): RpmFiguresOfRows {
  const tally = { tiers: amountTierCounts(), below: 0, equal: 0 };
  tallyRpms(columns, largeRpms, rows, count, clientRpmOf(clientRpm), tally);
  return rpmFiguresOfTally(columns, largeRpms, tally, gatherFromRows(rows, count));
}

/**
 * The RPM figures of a set of rows from its tally and a way to gather its rows of the
 * wanted tiers (the rows at the quartiles' positions are only found among them).
 * Leaves the tally's tier counts zero.
 */
export function rpmFiguresOfTally(
  columns: ProgramColumns,
  largeRpms: ReadonlyMap<number, bigint>,
  { tiers, below, equal }: RpmTally,
  gather: GatherWanted,
): RpmFiguresOfRows {
  const exact = exactCents(columns, largeRpms);
  const { n, valueAt } = selectByTierCounts(
    columns,
    "rpm",
    tiers,
    (n) => [...QUARTILES.flatMap((p) => neighbours(n, p)), n - 1],
    exact,
    gather,
  );
  const centsAt = (position: number) => valueAt.get(position)!;
  const [firstQuartile, median, fourthQuartile] = QUARTILES.map((p) =>
    roundHalfAwayFromZero(quantileOfCents(n, p, centsAt), 2),
  ) as [Decimal, Decimal, Decimal];
  const maxRpm = n === 0 ? new Decimal(0) : new Decimal(centsAt(n - 1).toString()).div(100);
  return { firstQuartile, median, fourthQuartile, maxRpm, rank: { below, equal, total: n } };
}

/**
 * The median limit of the rows, rounded to whole dollars (SEMANTICS.md section 9);
 * `bounds` are the coverage's limit tier bounds.
 */
export function medianLimitOfRows(
  columns: ProgramColumns,
  rows: Uint32Array,
  count: number,
  bounds: TierBounds,
): Decimal {
  const { limit, limitTier } = columns;
  const tiers = amountTierCounts();
  for (let r = 0; r < count; r++) tiers[limitTier[rows[r]!]!]!++;
  const { n, valueAt } = selectCountedRows(
    columns,
    "limit",
    rows,
    count,
    tiers,
    (n) => neighbours(n, "0.5"),
    (_, row) => limit[row]!,
    bounds,
  );
  return roundHalfAwayFromZero(
    quantileOfCents(n, "0.5", (position) => valueAt.get(position)!),
    0,
  );
}

/** The positions (0-based, among n values) of the two values q(p) interpolates. */
export function neighbours(n: number, p: QuantileLevel): number[] {
  const index = quantileIndex(n, p);
  return [index, index + 1];
}
