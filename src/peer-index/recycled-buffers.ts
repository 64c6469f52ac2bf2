/**
 * Buffers a build no longer needs (the sort's key and order arrays, the spare columns
 * the permutation leaves over), handed out again for the columns it makes next. The
 * garbage collector would give them back only after the build's peak: at Advisen
 * scale they are 100 MB, as much as the rank columns made from them.
 */
export class RecycledBuffers {
  private readonly free: { buffer: ArrayBufferLike; used: number }[] = [];

  give(...buffers: ArrayBufferLike[]): void {
    for (const buffer of buffers) {
      if (!this.free.some((slot) => slot.buffer === buffer)) this.free.push({ buffer, used: 0 });
    }
  }

  /**
   * A Uint32Array carved from the given buffer with the least room that is enough
   * (what the snapshot keeps is whole buffers), else a new one. Not cleared: every
   * column made from it is written whole.
   */
  uint32(length: number): Uint32Array {
    const bytes = length * Uint32Array.BYTES_PER_ELEMENT;
    const room = (slot: { buffer: ArrayBufferLike; used: number }) => slot.buffer.byteLength - slot.used;
    const slot = this.free.filter((candidate) => room(candidate) >= bytes).sort((a, b) => room(a) - room(b))[0];
    if (!slot) return new Uint32Array(length);
    const array = new Uint32Array(slot.buffer, slot.used, length);
    slot.used += bytes;
    return array;
  }
}
