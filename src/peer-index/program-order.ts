import { NAICS_KEYS } from "./naics-key.js";

/** A column a permutation moves: any typed array of the snapshot. */
export type Column = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

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
  /** The sort's working buffer, free once it returns. */
  scratch: ArrayBufferLike;
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
  return { order: order.order, bucketStarts: order.starts, scratch: byInner.order.buffer };
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
 * Puts columns in the given order (the value at sorted position k is the one loaded at
 * order[k]), one after another, each gathered into a spare buffer of its element size;
 * the column's own buffer becomes the spare for the next column of that size. So a
 * build holds one extra column per element size, not a second copy of the table, and
 * never waits for the garbage collector to give buffers back. (Walking the
 * permutation's cycles in place needs no spare at all, but each step waits on the
 * last one's cache miss: it was three times slower.) Elements move as 32-, 16- or
 * 8-bit words, so one monomorphic loop serves every column type and no bit pattern
 * passes through a double. The sorted rows come back as a view.
 */
export interface Permuter {
  permute<T extends Column>(column: T): T;
  /** The spare buffers left over once every column is permuted, one per element size: free. */
  leftovers(): ArrayBufferLike[];
}

export function createPermuter(order: Uint32Array): Permuter {
  const spares = new Map<number, ArrayBufferLike>();
  return {
    permute<T extends Column>(column: T): T {
      const size = column.BYTES_PER_ELEMENT;
      const capacity = column.length;
      // Shared columns stay shared (snapshot-builder.ts); the first column of a size brings the spare's kind.
      const spare = spares.get(size) ?? likeBuffer(column.buffer, capacity * size);
      spares.set(size, column.buffer);
      if (size >= 4)
        gather(
          new Uint32Array(column.buffer, column.byteOffset, capacity * (size / 4)),
          new Uint32Array(spare),
          order,
          size / 4,
        );
      else if (size === 2)
        gather(new Uint16Array(column.buffer, column.byteOffset, capacity), new Uint16Array(spare), order, 1);
      else gather(new Uint8Array(column.buffer, column.byteOffset, capacity), new Uint8Array(spare), order, 1);
      return new (column.constructor as new (buffer: ArrayBufferLike, offset: number, length: number) => T)(
        spare,
        0,
        order.length,
      );
    },
    leftovers: () => [...spares.values()],
  };
}

/** A new buffer of `bytes`, shared when `like` is. */
function likeBuffer(like: ArrayBufferLike, bytes: number): ArrayBufferLike {
  return like instanceof SharedArrayBuffer ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

function gather(
  from: Uint32Array | Uint16Array | Uint8Array,
  to: Uint32Array | Uint16Array | Uint8Array,
  order: Uint32Array,
  words: number,
): void {
  if (words === 1) {
    for (let k = 0; k < order.length; k++) to[k] = from[order[k]!]!;
    return;
  }
  for (let k = 0; k < order.length; k++) {
    const at = order[k]! * 2;
    to[2 * k] = from[at]!;
    to[2 * k + 1] = from[at + 1]!;
  }
}

/** The bucket of a row: its coverage's index and its NAICS key. */
export function bucketOf(coverageIndex: number, naicsKey: number): number {
  return coverageIndex * NAICS_KEYS + naicsKey;
}
