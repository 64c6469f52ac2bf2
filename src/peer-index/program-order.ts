import { NAICS_KEYS } from "./naics-key.js";

type Column = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * The order of a table's rows in a snapshot, (coverage, NAICS key, then the effective
 * date or the loss year), found in Node rather than by PostgreSQL (whose sort of 4
 * million wide rows spills to disk at the default work_mem and took most of a build):
 * two stable counting-sort passes, by the inner key then by (coverage, NAICS key),
 * linear in the rows.
 */
export interface RowOrder {
  /** The loaded row at each sorted position. */
  order: Uint32Array;
  /** Where each bucket (bucketOf) starts; one entry more than buckets. */
  bucketStarts: Int32Array;
}

export function rowOrder(bucket: Uint32Array, inner: Int32Array, rows: number, buckets: number): RowOrder {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows; i++) {
    min = Math.min(min, inner[i]!);
    max = Math.max(max, inner[i]!);
  }
  const byInner = countingSort(rows, rows === 0 ? 1 : max - min + 1, (i) => inner[i]! - min, undefined);
  const order = countingSort(rows, buckets, (i) => bucket[i]!, byInner.order);
  return { order: order.order, bucketStarts: order.starts };
}

/** A stable counting sort of `input` (or 0..rows-1) by key in [0, keys). */
function countingSort(rows: number, keys: number, keyOf: (row: number) => number, input: Uint32Array | undefined) {
  const starts = new Int32Array(keys + 1);
  for (let i = 0; i < rows; i++) starts[keyOf(i) + 1]!++;
  for (let k = 0; k < keys; k++) starts[k + 1]! += starts[k]!;
  const next = starts.slice(0, keys);
  const order = new Uint32Array(rows);
  for (let j = 0; j < rows; j++) {
    const row = input ? input[j]! : j;
    order[next[keyOf(row)]!++] = row;
  }
  return { order, starts };
}

/**
 * Puts the first `order.length` values of `column` in the given order, in place (the
 * value at sorted position k is the one loaded at order[k]), so a build never holds a
 * second copy of a column: one pass along each cycle of the permutation, `moved`
 * marking what is done. Elements move as 32-, 16- or 8-bit words, so one monomorphic
 * loop serves every column type and no bit pattern passes through a double. Returns
 * the sorted rows as a view.
 */
export function permuteInPlace<T extends Column>(column: T, order: Uint32Array, moved: Uint8Array): T {
  const size = column.BYTES_PER_ELEMENT;
  const wordsPer = Math.max(1, size / 4);
  const words =
    size >= 4
      ? new Uint32Array(column.buffer, column.byteOffset, column.length * wordsPer)
      : size === 2
        ? new Uint16Array(column.buffer, column.byteOffset, column.length)
        : new Uint8Array(column.buffer, column.byteOffset, column.length);
  moved.fill(0, 0, order.length);
  for (let first = 0; first < order.length; first++) {
    if (moved[first]) continue;
    if (wordsPer === 1) {
      const saved = words[first]!;
      let at = first;
      for (let from = order[at]!; from !== first; at = from, from = order[at]!) {
        words[at] = words[from]!;
        moved[at] = 1;
      }
      words[at] = saved;
      moved[at] = 1;
    } else {
      const [low, high] = [words[2 * first]!, words[2 * first + 1]!];
      let at = first;
      for (let from = order[at]!; from !== first; at = from, from = order[at]!) {
        words[2 * at] = words[2 * from]!;
        words[2 * at + 1] = words[2 * from + 1]!;
        moved[at] = 1;
      }
      words[2 * at] = low;
      words[2 * at + 1] = high;
      moved[at] = 1;
    }
  }
  return column.subarray(0, order.length) as T;
}

/** The bucket of a row: its coverage's index and its NAICS key. */
export function bucketOf(coverageIndex: number, naicsKey: number): number {
  return coverageIndex * NAICS_KEYS + naicsKey;
}
