import { scratchValues } from "./scratch.js";
import { selectPositions } from "./select.js";

/** Buckets of the first pass: the top 16 bits of a double (sign, exponent, 4 bits of mantissa). */
const KEYS = 1 << 16;
const counts = new Int32Array(KEYS);
const target = new Uint8Array(KEYS);
/** Keys from here up are NaN (no value, 0x7ff8) or negative (sign bit): left out, or not handled here. */
const NAN_KEYS = 0x7ff0;
const NEGATIVE_KEYS = 0x8000;

/**
 * The values at the given positions (0-based, ascending) among column[rows[r]] for r in
 * [0, rows.length), NaN (no value) left out; and n, how many values there are. For
 * non-negative doubles (cents, RPM cents) the order of the values is the order of
 * their bit patterns, so a first pass counts the values per bucket of their top 16
 * bits (a sixteenth of a power of two), which tells the bucket and rank of each
 * position; a second pass gathers only the values of those few buckets, and
 * selection (select.ts) finishes among them. Two sequential passes and no moves of
 * all the values: a third of the time of selecting among them all. Undefined when
 * a value is negative (the bit order reverses there): the caller selects instead.
 */
export function bucketSelect(
  column: Float64Array,
  rows: Uint32Array,
  positionsOf: (n: number) => number[],
): { n: number; values: Map<number, number> } | undefined {
  const high = new Uint32Array(column.buffer, column.byteOffset, column.length * 2);
  let low = KEYS;
  let top = -1;
  for (let r = 0; r < rows.length; r++) {
    const key = high[rows[r]! * 2 + 1]! >>> 16;
    counts[key]!++;
    if (key < low) low = key;
    if (key > top) top = key;
  }
  try {
    if (top >= NEGATIVE_KEYS && countAbove(NEGATIVE_KEYS, top) > 0) return undefined;
    let n = 0;
    for (let key = low; key <= Math.min(top, NAN_KEYS - 1); key++) n += counts[key]!;
    const wanted = [...new Set(positionsOf(n))].filter((p) => p >= 0 && p < n).sort((a, b) => a - b);
    if (wanted.length === 0) return { n, values: new Map() };
    // Each wanted position's bucket, and how many values lie in buckets below it.
    const found: { position: number; key: number; below: number }[] = [];
    let below = 0;
    let w = 0;
    for (let key = low; key <= top && w < wanted.length; key++) {
      const inBucket = counts[key]!;
      while (w < wanted.length && wanted[w]! < below + inBucket) found.push({ position: wanted[w++]!, key, below });
      below += inBucket;
    }
    for (const { key } of found) target[key] = 1;
    // The gathered values keep the buckets' order: a position's rank among them is its
    // rank in its bucket plus the gathered values of the target buckets below it.
    const keys = [...new Set(found.map((f) => f.key))];
    const gatheredBelow = new Map<number, number>();
    let gathered = 0;
    for (const key of keys) {
      gatheredBelow.set(key, gathered);
      gathered += counts[key]!;
    }
    const values = scratchValues(gathered);
    let m = 0;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (target[high[row * 2 + 1]! >>> 16] === 1) values[m++] = column[row]!;
    }
    for (const key of keys) target[key] = 0;
    const rankOf = ({ position, key, below: under }: (typeof found)[number]) =>
      position - under + gatheredBelow.get(key)!;
    const selected = selectPositions(values, m, found.map(rankOf));
    return { n, values: new Map(found.map((f) => [f.position, selected.get(rankOf(f))!])) };
  } finally {
    if (top >= low) counts.fill(0, low, top + 1);
  }
}

function countAbove(from: number, to: number): number {
  let n = 0;
  for (let key = from; key <= to; key++) n += counts[key]!;
  return n;
}
