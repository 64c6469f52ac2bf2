/**
 * Byte pieces for the copied parts of large answers (a limit adequacy's cases: 1.9 MB
 * for a broad group at Advisen scale), lent to the code that fills them and given back
 * once the answer has been written. Made new and dropped by each answer, those
 * megabytes kept V8's full collections coming every sixth or seventh answer (3-11 ms of
 * pause each, plus as much again in marking steps), which made the operation's p95 two
 * to three times its p50; reused, half as many ran (docs/peer-index.md).
 *
 * Giving back is the risky half: a piece given back while still read would be written
 * into by another answer. So only the writer that knows the bytes are no longer read
 * gives pieces back (rest-handler.ts: an HTTP/1.1 answer once finished, and not kept by
 * the answer cache); any other piece (an HTTP/2 answer's: the REST face lends to both)
 * is left to the garbage collector, and the pool makes a new one when it is empty.
 */
export class AnswerPieces {
  private readonly free: ArrayBuffer[] = [];
  /** The buffers lent and not yet given back, so nothing else is ever taken in. */
  private readonly lent = new WeakSet<ArrayBufferLike>();

  constructor(
    /** The size of every piece. */
    readonly size: number,
    /** Pieces kept for reuse at most. */
    private readonly keepAtMost: number,
  ) {}

  /** A piece of `size` bytes, not cleared. */
  lend(): Uint8Array<ArrayBuffer> {
    const buffer = this.free.pop() ?? new ArrayBuffer(this.size);
    this.lent.add(buffer);
    return new Uint8Array(buffer);
  }

  /** Whether any of the chunks is a view of a lent piece (most answers hold none). */
  holdsLent(chunks: readonly Uint8Array[]): boolean {
    return chunks.some(({ buffer }) => this.lent.has(buffer));
  }

  /**
   * Takes back the lent pieces among the chunks (views of them or of anything else, in
   * any number per piece), which nothing may read any more.
   */
  giveBack(chunks: readonly Uint8Array[]): void {
    for (const { buffer } of chunks) {
      if (!this.lent.has(buffer)) continue;
      this.lent.delete(buffer);
      if (this.free.length < this.keepAtMost) this.free.push(buffer as ArrayBuffer);
    }
  }

  /** How many pieces wait to be lent again (for tests). */
  freeCount(): number {
    return this.free.length;
  }
}

/**
 * The process's pieces: 64 KiB each, up to 3 MiB kept (a broadest answer's 2.9 MB). Answers written at once take more, and those past this go
 * to the collector as before: the RSS at peak is already near its 1 GB limit.
 */
export const answerPieces = new AnswerPieces(64 * 1024, 48);
