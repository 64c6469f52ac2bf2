// Order statistics by tiers against a sort: random amounts (ties, none, values up to
// 2^53, all in one tier or spread over many) in coverages of random sizes, tiered as
// the build tiers them, read through random rows; each selected value is the one a
// full sort puts at that position, for all four amounts at once (values of one-value
// tiers read from their bounds) and for each alone.
import t from "tap";
import { tiersOfOrder } from "../../src/peer-index/amount-tiers.js";
import { rankRows } from "../../src/peer-index/rank-rows.js";
import type { ProgramColumns, RowRange, TierBounds } from "../../src/peer-index/snapshot.js";
import {
  AMOUNTS,
  amountTierCounts,
  countAmountTiers,
  selectCountedAmounts,
  selectCountedRows,
  tierCounts,
  type AmountTierBounds,
} from "../../src/peer-index/tier-select.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";

const random = createSeededRandom("tier-select-1");

/**
 * Four amount columns over coverages laid end to end, tiered per coverage as
 * snapshot-builder.ts does, and each coverage's tier bounds (`bounds[k]` of coverages[k]).
 */
function tieredColumns(
  random: SeededRandom,
  coverages: RowRange[],
): { columns: ProgramColumns; bounds: AmountTierBounds[] } {
  const size = coverages.at(-1)!.end;
  const columns: Record<string, Float64Array | Uint16Array> = {};
  const bounds = coverages.map(() => ({}) as Record<string, TierBounds>);
  for (const amount of AMOUNTS) {
    const spread = random.pick([1, 3, 100, 1e6, 2 ** 53]);
    const values = Float64Array.from({ length: size }, () =>
      random.chance(0.1) ? NaN : Math.floor(random.next() * spread),
    );
    const order = new Uint32Array(size);
    const tiers = new Uint16Array(size);
    coverages.forEach((range, k) => {
      rankRows(values, range, order, new Uint32Array(size));
      bounds[k]![amount] = tiersOfOrder(values, order, range, tiers);
    });
    columns[amount] = values;
    columns[`${amount}Tier`] = tiers;
  }
  return { columns: columns as unknown as ProgramColumns, bounds: bounds as unknown as AmountTierBounds[] };
}

t.test("selected rows hold the sorted values at those positions", async (t) => {
  let mismatches = 0;
  for (let round = 0; round < 300; round++) {
    const sizes = Array.from({ length: 1 + random.int(3) }, () => 1 + random.int(round < 100 ? 8 : 20_000));
    const coverages = sizes.map((size, k) => {
      const start = sizes.slice(0, k).reduce((a, b) => a + b, 0);
      return { start, end: start + size };
    });
    const { columns, bounds } = tieredColumns(random, coverages);
    const coverage = random.int(coverages.length);
    const { start, end } = coverages[coverage]!;
    const rows = Uint32Array.from({ length: random.int(end - start + 1) }, () => start + random.int(end - start));
    const asked: number[][] = []; // in the order of AMOUNTS
    const counts = tierCounts();
    countAmountTiers(columns, rows, counts);
    const selected = selectCountedAmounts(
      columns,
      rows,
      counts,
      (n) => {
        const positions = [...Array.from({ length: 1 + random.int(6) }, () => random.int(Math.max(n, 1))), 0, n - 1];
        asked.push(positions);
        return [...positions, n, -1];
      },
      (amount, row) => columns[amount][row]!,
      bounds[coverage]!,
    );
    for (const [a, amount] of AMOUNTS.entries()) {
      const sorted = [...rows]
        .map((row) => columns[amount][row]!)
        .filter((v) => !Number.isNaN(v))
        .sort((a, b) => a - b);
      const { n, valueAt } = selected[amount];
      if (n !== sorted.length) {
        mismatches++;
        continue;
      }
      for (const p of asked[a]!) {
        if (p < 0 || p >= n) mismatches += +valueAt.has(p);
        else mismatches += +(valueAt.get(p) !== sorted[p]);
      }
      mismatches += +valueAt.has(n) + +valueAt.has(-1);
      // One amount alone, its tiers counted by the caller's own pass, as the RPM does.
      const amountCounts = amountTierCounts();
      for (const row of rows) amountCounts[columns[`${amount}Tier`][row]!]!++;
      const alone = selectCountedRows(
        columns,
        amount,
        rows,
        rows.length,
        amountCounts,
        () => asked[a]!,
        (_, row) => columns[amount][row]!,
        amount === "rpm" ? undefined : bounds[coverage]![amount],
      );
      mismatches += +(alone.n !== n);
      for (const p of asked[a]!.filter((p) => p >= 0 && p < n)) mismatches += +(alone.valueAt.get(p) !== sorted[p]);
    }
  }
  t.equal(mismatches, 0);
});

t.test("a tier holds about one TIERS-th of its coverage, in value order", async (t) => {
  const coverage = { start: 5, end: 5 + 100_000 };
  const values = Float64Array.from({ length: coverage.end }, (_, i) => (i % 7 === 0 ? NaN : (i * 7919) % 1000));
  const order = new Uint32Array(coverage.end);
  const tiers = new Uint16Array(coverage.end);
  rankRows(values, coverage, order, new Uint32Array(coverage.end));
  const { least, greatest } = tiersOfOrder(values, order, coverage, tiers);
  const perTier = new Map<number, number>();
  let previous = { tier: -1, value: -Infinity };
  let ordered = true;
  for (let k = coverage.start; k < coverage.end && order[k] !== 0xffffffff; k++) {
    const row = order[k]!;
    ordered &&= tiers[row]! >= previous.tier && values[row]! >= previous.value;
    previous = { tier: tiers[row]!, value: values[row]! };
    perTier.set(tiers[row]!, (perTier.get(tiers[row]!) ?? 0) + 1);
  }
  t.ok(ordered, "tiers ascend with the values");
  const sizes = [...perTier.values()];
  t.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `tier sizes ${Math.min(...sizes)} to ${Math.max(...sizes)}`);
  let bounded = true;
  for (let row = coverage.start; row < coverage.end; row++) {
    const tier = tiers[row]!;
    if (tier !== 4096) bounded &&= least[tier]! <= values[row]! && values[row]! <= greatest[tier]!;
  }
  t.ok(bounded, "each row's value lies within its tier's bounds");
  let ascending = true;
  for (let tier = 1; tier < 4096; tier++)
    ascending &&= least[tier]! >= greatest[tier - 1]! && greatest[tier]! >= least[tier]!;
  t.ok(ascending, "the bounds ascend from tier to tier");
  const few = { start: 0, end: 3 };
  const fewTiers = new Uint16Array(3);
  rankRows(Float64Array.of(30, NaN, 10), few, order, new Uint32Array(3));
  const sparse = tiersOfOrder(Float64Array.of(30, NaN, 10), order, few, fewTiers);
  t.same([...fewTiers], [2048, 4096, 0], "two rows: the first and the middle tier");
  t.same(
    [
      sparse.least[0],
      sparse.greatest[0],
      sparse.least[1],
      sparse.greatest[2047],
      sparse.least[2048],
      sparse.greatest[4095],
    ],
    [10, 10, 10, 10, 30, 30],
    "empty tiers take the greatest value before them",
  );
  t.equal(tiers[7], 4096, "a row without the amount has no tier");
  t.equal(tiers[0], 0, "rows before the coverage are not touched");
});
