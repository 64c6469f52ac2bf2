import { NO_RANK, type RowRange } from "./snapshot.js";

const DIGIT = 65_536;

/**
 * Ranks the values of a coverage's rows [start, end) (NaN: none, NO_RANK), ties broken
 * by row, for order statistics at request time. The values are whole numbers (cents),
 * so the rows are put in order by an LSD radix sort on 16-bit digits: linear, and a
 * few passes for values below 2^53. Values past 2^53 - 1 sort after every other; their
 * order among themselves comes from `exact`. The coverage's slices of the two outputs
 * are the sort's working buffers, so ranking allocates nothing the size of a coverage
 * (it ranks 8 million values a build).
 */
export function rankRows(
  values: Float64Array,
  { start, end }: RowRange,
  rank: Uint32Array,
  rowByRank: Uint32Array,
  exact?: ReadonlyMap<number, bigint>,
): void {
  const sorted = rowByRank.subarray(start, end);
  let rows = sorted;
  let spare = rank.subarray(start, end);
  let n = 0;
  let max = 0;
  const large: number[] = [];
  for (let i = start; i < end; i++) {
    const value = values[i]!;
    if (value !== value) continue;
    if (value > Number.MAX_SAFE_INTEGER && exact) large.push(i);
    else {
      rows[n++] = i;
      if (value > max) max = value;
    }
  }
  const counts = new Uint32Array(DIGIT + 1);
  for (let divisor = 1; divisor <= max; divisor *= DIGIT) {
    radixPass(values, rows, spare, n, divisor, counts);
    [rows, spare] = [spare, rows];
  }
  if (rows !== sorted) sorted.set(rows.subarray(0, n));
  large.sort((a, b) => {
    const [x, y] = [exact!.get(a)!, exact!.get(b)!];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  large.forEach((row, j) => (sorted[n + j] = row));
  const ranked = n + large.length;
  sorted.fill(0, ranked);
  rank.fill(NO_RANK, start, end);
  for (let r = 0; r < ranked; r++) rank[sorted[r]!] = r;
}

/** One stable counting pass over the digit floor(value / divisor) mod 2^16. */
function radixPass(values: Float64Array, from: Uint32Array, to: Uint32Array, n: number, divisor: number, counts: Uint32Array): void {
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(Math.floor(values[from[i]!]! / divisor) % DIGIT) + 1]!++;
  for (let d = 0; d < DIGIT; d++) counts[d + 1]! += counts[d]!;
  for (let i = 0; i < n; i++) {
    const row = from[i]!;
    to[counts[Math.floor(values[row]! / divisor) % DIGIT]!++] = row;
  }
}
