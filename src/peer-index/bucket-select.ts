import { scratchValues } from "./scratch.js";
import { selectPositions } from "./select.js";

/**
 * Buckets of the first pass, by a double's exponent and the top 8 bits of its mantissa
 * (a 256th of a power of two), for the values an amount in cents can take: 0 (bucket
 * 0) and 1 up to 2^53 (exponents 0 to 52: buckets 1 to 53 × 256). The last bucket
 * holds NaN, no value.
 */
const MANTISSA_BITS = 8;
const ONE = 0x3ff << MANTISSA_BITS;
const NAN_SLOT = (53 << MANTISSA_BITS) + 1;
const SLOTS = NAN_SLOT + 1;
const counts = new Int32Array(SLOTS);
/** High words from here up to NaN's are values from 2^53 up, and infinity: not handled here. */
const TWO_TO_53 = 0x43400000;
const NAN = 0x7ff80000;
/** Where the second pass writes each bucket's next value: past the gathered ones for a bucket not wanted. */
const next = new Int32Array(SLOTS);
const wantedBucket = new Uint8Array(SLOTS);

/**
 * The values at the given positions (0-based, ascending) among column[rows[r]] for r in
 * [0, rows.length), NaN (no value) left out; and n, how many values there are. For
 * non-negative doubles (cents, RPM cents) the order of the values is the order of
 * their bit patterns, so a first pass counts the values per bucket of their top bits,
 * which tells the bucket and rank of each position; a second pass gathers the values
 * of those few buckets, each bucket's values together, and selection (select.ts)
 * finishes within each bucket. No value moves but the gathered ones.
 * Undefined when a value is negative (the bit order reverses there) or from 2^53 up:
 * the caller selects instead.
 */
export function bucketSelect(
  column: Float64Array,
  rows: Uint32Array,
  positionsOf: (n: number) => number[],
): { n: number; values: Map<number, number> } | undefined {
  const high = new Uint32Array(column.buffer, column.byteOffset, column.length * 2);
  let signs = 0;
  let outside = 0;
  for (let r = 0; r < rows.length; r++) {
    const word = high[rows[r]! * 2 + 1]!;
    signs |= word;
    outside |= +(word >= TWO_TO_53) & +(word < NAN);
    counts[bucketOf(word)]!++;
  }
  try {
    if (signs < 0 || outside !== 0) return undefined;
    const n = rows.length - counts[NAN_SLOT]!;
    const wanted = [...new Set(positionsOf(n))].filter((p) => p >= 0 && p < n).sort((a, b) => a - b);
    // Each wanted position's bucket and how many values lie below it; each wanted
    // bucket's place among the gathered values.
    const found: { position: number; bucket: number; below: number }[] = [];
    const gatheredAt = new Map<number, number>();
    let gathered = 0;
    let below = 0;
    for (let bucket = 0, w = 0; w < wanted.length; bucket++) {
      const inBucket = counts[bucket]!;
      while (w < wanted.length && wanted[w]! < below + inBucket) {
        found.push({ position: wanted[w++]!, bucket, below });
        if (!gatheredAt.has(bucket)) {
          gatheredAt.set(bucket, gathered);
          gathered += inBucket;
        }
      }
      below += inBucket;
    }
    if (gathered === 0) return { n, values: new Map() };
    const values = scratchValues(gathered + 1);
    // Every value is written: those of unwanted buckets all to the one slot past the
    // gathered ones, and only a wanted bucket's place moves on.
    next.fill(gathered);
    for (const [bucket, at] of gatheredAt) {
      next[bucket] = at;
      wantedBucket[bucket] = 1;
    }
    // Few wanted values (amounts spread out: premiums, RPMs): a branch that is rarely
    // taken beats writing every value; many (round limits): write every value.
    if (gathered * 8 < rows.length) {
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        const bucket = bucketOf(high[row * 2 + 1]!);
        if (wantedBucket[bucket] === 1) values[next[bucket]!++] = column[row]!;
      }
    } else {
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        const bucket = bucketOf(high[row * 2 + 1]!);
        const at = next[bucket]!;
        values[at] = column[row]!;
        next[bucket] = at + wantedBucket[bucket]!;
      }
    }
    const selected = new Map<number, number>();
    for (const [bucket, at] of gatheredAt) {
      wantedBucket[bucket] = 0;
      const inBucket = found.filter((f) => f.bucket === bucket);
      const ranks = selectPositions(
        values.subarray(at, at + counts[bucket]!),
        counts[bucket]!,
        inBucket.map((f) => f.position - f.below),
      );
      for (const f of inBucket) selected.set(f.position, ranks.get(f.position - f.below)!);
    }
    return { n, values: selected };
  } finally {
    counts.fill(0);
  }
}

/**
 * The bucket of a non-negative double by the high word of its bits: 0 for zero (and for
 * values below 1, which no amount in cents takes), NAN_SLOT for NaN. The bucket of a
 * value from 2^53 up or negative is meaningless: the caller sees those apart.
 */
function bucketOf(high: number): number {
  return Math.min(Math.max((high >>> (20 - MANTISSA_BITS)) - ONE + 1, 0), NAN_SLOT);
}
