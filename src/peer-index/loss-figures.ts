import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { LossCases } from "../benchmark/peer-statistics.js";
import { firstAbove } from "./peer-filter.js";
import { forEachMarkedRank, markRank } from "./rank-bits.js";
import { scratchBits } from "./scratch.js";
import type { LossColumns, RowRange } from "./snapshot.js";

/** The rows of a run of losses (one NAICS key of a coverage) whose loss year passes the filter: one range, as years ascend. */
export function lossYearRange(columns: LossColumns, run: RowRange, years: LossYearFilter): RowRange {
  const { start, end } = run;
  if (years.kind === "any") return run;
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
  const { rank, rowByRank, id, amount } = columns;
  for (let r = 0; r < count; r++) markRank(bits, rank[rows[r]!]!);
  const ids = new Float64Array(count);
  const amounts = new Float64Array(count);
  let n = 0;
  forEachMarkedRank(bits, size, (k) => {
    const row = rowByRank[coverage.start + k]!;
    ids[n] = id[row]!;
    amounts[n++] = amount[row]!;
  });
  return { ids, amounts };
}
