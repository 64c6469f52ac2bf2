/** The first chunk fits most answers and comes from Node's shared pool (under 4 KiB). */
const FIRST_CHUNK = 4000;
/** Later chunks all have one size, so the allocator reuses them without fragmenting. */
export const CHUNK = 64 * 1024;

/**
 * JSON written token by token into a list of byte chunks. REST answers are written
 * here rather than built as an object tree for JSON.stringify: an answer can list
 * tens of thousands of cases, and the tree, the string and the garbage they left cost
 * four times what writing the bytes does. Chunks, not one growing buffer: growing by
 * doubling copied every byte about twice and left buffers of every size behind, which
 * the process kept (about 100 MB after a minute of large answers).
 *
 * Some parts may be written later (`later`): a long list's items, a slice per turn of
 * the event loop, so that a large answer never holds the loop for long.
 */
export class JsonBytes {
  /** What is written, in order, and the places of what is still to write. */
  private readonly parts: (Buffer | LaterPart)[] = [];
  private bytes: Buffer;
  /** Where in `bytes` the part being written began. */
  private start = 0;
  private end = 0;

  constructor(firstChunk = FIRST_CHUNK) {
    this.bytes = Buffer.allocUnsafe(firstChunk);
  }

  /** Bytes already encoded (a punctuation mark, a key with its colon). */
  raw(token: Uint8Array): void {
    this.reserve(token.length);
    const { bytes } = this;
    // A byte loop: these tokens are a few bytes long, and Buffer#set costs more per call.
    for (let i = 0; i < token.length; i++) bytes[this.end + i] = token[i]!;
    this.end += token.length;
  }

  byte(code: number): void {
    this.reserve(1);
    this.bytes[this.end++] = code;
  }

  /** A number as JSON.stringify writes it: not finite is null. */
  number(value: number): void {
    if (value >= 0 && value < 2 ** 32 && Number.isInteger(value)) return this.uint32(value);
    this.ascii(Number.isFinite(value) ? String(value) : "null");
  }

  /** A 64-bit integer, exactly: JSON numbers have no size limit, only JavaScript's do. */
  integer(value: bigint): void {
    if (value >= 0n && value < 2n ** 32n) return this.uint32(Number(value));
    this.ascii(value.toString());
  }

  boolean(value: boolean): void {
    this.ascii(value ? "true" : "false");
  }

  null(): void {
    this.ascii("null");
  }

  string(value: string): void {
    const quoted = JSON.stringify(value);
    this.reserve(quoted.length * 3); // the most UTF-8 bytes one UTF-16 unit can take
    this.end += this.bytes.write(quoted, this.end, "utf8");
  }

  /** `[`, JSON already written (a list's items, rendered-lists.ts), `]`: the items go in as they are, not copied. */
  bracketed(items: readonly Uint8Array[]): void {
    this.byte(OPEN_BRACKET);
    this.cut();
    for (const piece of items) this.parts.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    this.byte(CLOSE_BRACKET);
  }

  /** Keeps the place, here, of bytes that `write` writes later. */
  later(write: LaterPart): void {
    this.cut();
    this.parts.push(write);
  }

  /** Everything, in order, without a copy; the later parts written now. */
  chunks(): Buffer[] {
    this.cut();
    return this.parts.flatMap((part) => (typeof part === "function" ? part().chunks() : [part]));
  }

  /** Everything, in order, each later part written in a turn of its own (`inTurn`). */
  async chunksInTurns(inTurn: <T>(work: () => T) => Promise<T>): Promise<Buffer[]> {
    this.cut();
    const chunks: Buffer[] = [];
    for (const part of this.parts) {
      if (typeof part === "function") chunks.push(...(await (await inTurn(part)).chunksInTurns(inTurn)));
      else chunks.push(part);
    }
    return chunks;
  }

  /** Ends the part being written; the next one goes on in the same buffer. */
  private cut(): void {
    if (this.end > this.start) this.parts.push(this.bytes.subarray(this.start, this.end));
    this.start = this.end;
  }

  private ascii(text: string): void {
    this.reserve(text.length);
    this.end += this.bytes.write(text, this.end, "latin1");
  }

  /** Digits written from the last, two at a time: most of an answer's bytes are ids and amounts. */
  private uint32(value: number): void {
    const digits = digitCount(value);
    this.reserve(digits);
    const { bytes } = this;
    let rest = value;
    let at = this.end + digits;
    while (rest >= 100) {
      const next = (rest / 100) >>> 0;
      const pair = (rest - next * 100) * 2;
      bytes[--at] = DIGIT_PAIRS[pair + 1]!;
      bytes[--at] = DIGIT_PAIRS[pair]!;
      rest = next;
    }
    if (rest >= 10) {
      bytes[at - 1] = DIGIT_PAIRS[rest * 2 + 1]!;
      bytes[at - 2] = DIGIT_PAIRS[rest * 2]!;
    } else {
      bytes[at - 1] = 48 + rest;
    }
    this.end += digits;
  }

  /** Room for `length` contiguous bytes: a token never straddles two chunks. */
  private reserve(length: number): void {
    if (this.end + length <= this.bytes.length) return;
    this.cut();
    this.bytes = Buffer.allocUnsafe(Math.max(CHUNK, length));
    this.start = 0;
    this.end = 0;
  }
}

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Bytes written later, by a JsonBytes of their own. */
export type LaterPart = () => JsonBytes;

/** "00" to "99", as the bytes of each pair in turn. */
const DIGIT_PAIRS = Buffer.from(Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0")).join(""), "latin1");

/** The number of decimal digits of a whole number below 2^32. */
function digitCount(value: number): number {
  let digits = 1;
  for (let bound = 10; value >= bound && digits < 10; bound *= 10) digits++;
  return digits;
}

/** The bytes of an answer written as chunks. */
export function byteLengthOf(chunks: readonly Uint8Array[]): number {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return length;
}
