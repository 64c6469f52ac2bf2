import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { LossCases } from "../benchmark/peer-statistics.js";
import { firstAbove } from "./peer-filter.js";
import { scratchBits } from "./scratch.js";
import type { LossColumns, RowRange } from "./snapshot.js";

/** The rows of a coverage's losses whose loss year passes the filter: one range, as years ascend. */
export function lossYearRange(columns: LossColumns, coverage: RowRange, years: LossYearFilter): RowRange {
  const { start, end } = coverage;
  if (years.kind === "any") return coverage;
  const [oldest, newest] = years.kind === "exact" ? [years.year, years.year] : [years.oldest, years.newest];
  return {
    start: oldest === undefined ? start : firstAbove(columns.year, start, end, oldest - 1),
    end: newest === undefined ? end : firstAbove(columns.year, start, end, newest),
  };
}

/**
 * The matched loss rows as cases in answer order (amount, then id), without a sort:
 * each row's rank in that order was computed at build, so the matched rows are marked
 * in a bit set over the coverage's ranks and read back in rank order. O(matched +
 * coverage / 32).
 */
export function casesInOrder(columns: LossColumns, coverage: RowRange, rows: Uint32Array, count: number): LossCases {
  const size = coverage.end - coverage.start;
  const bits = scratchBits(size);
  const rank = columns.rank;
  for (let r = 0; r < count; r++) {
    const k = rank[rows[r]!]!;
    bits[k >>> 5]! |= 1 << (k & 31);
  }
  const ids = new Float64Array(count);
  const amounts = new Float64Array(count);
  const { rowByRank, id, amount } = columns;
  let n = 0;
  const words = Math.ceil(size / 32);
  for (let w = 0; w < words; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      const row = rowByRank[coverage.start + w * 32 + (31 - Math.clz32(low))]!;
      ids[n] = id[row]!;
      amounts[n++] = amount[row]!;
      word ^= low;
    }
  }
  return { ids, amounts };
}
