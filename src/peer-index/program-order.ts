import { SECTORS } from "./snapshot.js";

type Column = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * The order of programs in a snapshot, (coverage, NAICS sector, effective date),
 * found in Node rather than by PostgreSQL (whose sort of 4 million wide rows spills
 * to disk at the default work_mem and took most of a build): two stable counting-sort
 * passes, by day then by (coverage, sector), linear in the rows.
 */
export interface ProgramOrder {
  /** The loaded row at each sorted position. */
  order: Uint32Array;
  /** Where each (coverage index * SECTORS + sector) bucket starts; one entry more than buckets. */
  bucketStarts: Int32Array;
}

export function programOrder(bucket: Uint32Array, day: Int32Array, rows: number, buckets: number): ProgramOrder {
  let minDay = Infinity;
  let maxDay = -Infinity;
  for (let i = 0; i < rows; i++) {
    minDay = Math.min(minDay, day[i]!);
    maxDay = Math.max(maxDay, day[i]!);
  }
  const byDay = countingSort(rows, rows === 0 ? 1 : maxDay - minDay + 1, (i) => day[i]! - minDay, undefined);
  const order = countingSort(rows, buckets, (i) => bucket[i]!, byDay.order);
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
 * A new column holding `column`'s values in the given order. Elements are copied as
 * 32-, 16- or 8-bit words, so one monomorphic loop serves every column type (and no
 * bit pattern passes through a double).
 */
export function permute<T extends Column>(column: T, order: Uint32Array): T {
  const size = column.BYTES_PER_ELEMENT;
  const sorted = new (column.constructor as new (length: number) => T)(order.length);
  if (size >= 4) {
    const words = size / 4;
    const from = new Uint32Array(column.buffer, column.byteOffset, column.length * words);
    const to = new Uint32Array(sorted.buffer);
    if (words === 1) for (let k = 0; k < order.length; k++) to[k] = from[order[k]!]!;
    else {
      for (let k = 0; k < order.length; k++) {
        const at = order[k]! * 2;
        to[2 * k] = from[at]!;
        to[2 * k + 1] = from[at + 1]!;
      }
    }
  } else if (size === 2) {
    const from = new Uint16Array(column.buffer, column.byteOffset, column.length);
    const to = new Uint16Array(sorted.buffer);
    for (let k = 0; k < order.length; k++) to[k] = from[order[k]!]!;
  } else {
    const from = new Uint8Array(column.buffer, column.byteOffset, column.length);
    const to = new Uint8Array(sorted.buffer);
    for (let k = 0; k < order.length; k++) to[k] = from[order[k]!]!;
  }
  return sorted;
}

/** The bucket of a row: its coverage's index and its NAICS sector. */
export function bucketOf(coverageIndex: number, sector: number): number {
  return coverageIndex * SECTORS + sector;
}
