/**
 * Per-process scratch space for one request's computation, grown to the largest
 * coverage seen and reused. Safe because every scan runs to its end synchronously:
 * no request can interleave with another inside one.
 */
const rows = { programs: new Uint32Array(0), losses: new Uint32Array(0), gathered: new Uint32Array(0) };
let words = new Uint32Array(0);
let bytes = new Uint8Array(0);
let shorts = new Uint16Array(0);
let amounts = new Float64Array(0);
let keys: [Uint32Array, Uint32Array] = [new Uint32Array(0), new Uint32Array(0)];

/**
 * Room for `size` row numbers of a table (one buffer each, so a program scan and a loss
 * scan can be held at once; `gathered`: a subset of a program scan's rows, gathered again).
 */
export function scratchRows(table: keyof typeof rows, size: number): Uint32Array {
  if (rows[table].length < size) rows[table] = new Uint32Array(size);
  return rows[table];
}

/** A bit set of `size` bits, all clear. */
export function scratchBits(size: number): Uint32Array {
  const needed = Math.ceil(size / 32);
  if (words.length < needed) words = new Uint32Array(needed);
  words.fill(0, 0, needed);
  return words;
}

/** Room for `size` sort keys, twice (a radix sort's two sides). */
export function scratchKeys(size: number): [Uint32Array, Uint32Array] {
  if (keys[0].length < size) keys = [new Uint32Array(size), new Uint32Array(size)];
  return keys;
}

/** Room for `size` bytes (not cleared). */
export function scratchBytes(size: number): Uint8Array {
  if (bytes.length < size) bytes = new Uint8Array(size);
  return bytes;
}

/** `size` 16-bit values, all zero. */
export function scratchShorts(size: number): Uint16Array {
  if (shorts.length < size) shorts = new Uint16Array(size);
  shorts.fill(0, 0, size);
  return shorts;
}

/** Room for `size` amounts (not cleared). */
export function scratchAmounts(size: number): Float64Array {
  if (amounts.length < size) amounts = new Float64Array(size);
  return amounts;
}
