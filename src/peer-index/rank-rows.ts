import { NO_ROW, type RowRange } from "./snapshot.js";

const DIGIT = 65_536;
/** The radix passes' digit counts, one buffer for every call (a build ranks some twenty coverages' columns). */
const counts = new Uint32Array(DIGIT + 1);

/**
 * Puts the rows of a coverage [start, end) that have a value (NaN: none) in order of
 * value, ties by row, into rowByRank[start..), NO_ROW after them, for the amounts'
 * tiers (amount-tiers.ts). The values are whole numbers (cents), so this is an
 * LSD radix sort on 16-bit digits: linear, and a few passes for values below 2^53.
 * Values past 2^53 - 1 sort after every other; their order among themselves comes from
 * `exact`. `scratch` has room for the coverage's rows: the build ranks 8 million
 * values, and allocates nothing per coverage.
 */
export function rankRows(
  values: Float64Array,
  { start, end }: RowRange,
  rowByRank: Uint32Array,
  scratch: Uint32Array,
  exact?: ReadonlyMap<number, bigint>,
): void {
  const sorted = rowByRank.subarray(start, end);
  let rows = sorted;
  let spare = scratch.subarray(0, end - start);
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
  sorted.fill(NO_ROW, n + large.length);
}

/** One stable counting pass over the digit floor(value / divisor) mod 2^16. */
function radixPass(
  values: Float64Array,
  from: Uint32Array,
  to: Uint32Array,
  n: number,
  divisor: number,
  counts: Uint32Array,
): void {
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(Math.floor(values[from[i]!]! / divisor) % DIGIT) + 1]!++;
  for (let d = 0; d < DIGIT; d++) counts[d + 1]! += counts[d]!;
  for (let i = 0; i < n; i++) {
    const row = from[i]!;
    to[counts[Math.floor(values[row]! / divisor) % DIGIT]!++] = row;
  }
}
