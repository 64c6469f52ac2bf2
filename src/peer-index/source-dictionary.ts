import { CURATED_SOURCE } from "../benchmark/contributors.js";
import type { CopyRow } from "./copy-rows.js";
import { CURATED, NO_SOURCE } from "./snapshot.js";

/** Source indexes are 16 bits (ProgramColumns.source). */
const MAX_SOURCES = 0x10000;

interface Seen {
  /** The field's bytes as COPY sent them. */
  bytes: Buffer;
  index: number;
}

/**
 * The programs' sources as dense indexes, read from the COPY without a string per row
 * (copy-rows.ts): a field is known by its bytes as sent, escapes and all (COPY escapes
 * the same text the same way, so two sources have the same bytes only when they are
 * the same text), hashed (32-bit FNV-1a) and compared with those of the sources seen.
 * A new source is turned into text once. NULL and "" are NO_SOURCE, `curated` is
 * CURATED, as contributors.ts reads them; the text is compared exactly, as there.
 */
export class SourceDictionary {
  /** The texts by index (PeerSnapshot.sources). */
  readonly texts: string[] = ["", CURATED_SOURCE];
  private readonly byHash = new Map<number, Seen[]>();

  constructor() {
    this.remember(Buffer.from(CURATED_SOURCE, "utf8"), CURATED);
  }

  /** The index of the source in `field` of the row. */
  indexOf(row: CopyRow, field: number): number {
    const start = row.starts[field]!;
    const end = row.ends[field]!;
    if (start === end || row.isNull(field)) return NO_SOURCE;
    const buffer = row.buffer;
    const hash = fnv1a(buffer, start, end);
    for (const seen of this.byHash.get(hash) ?? []) {
      if (buffer.compare(seen.bytes, 0, seen.bytes.length, start, end) === 0) return seen.index;
    }
    if (this.texts.length === MAX_SOURCES)
      throw new Error(`more than ${MAX_SOURCES - 2} program sources: too many for the peer index`);
    const index = this.texts.length;
    this.texts.push(row.unescapedText(field));
    // A copy: the row's buffer is the stream's, reused.
    this.remember(Buffer.from(buffer.subarray(start, end)), index, hash);
    return index;
  }

  private remember(bytes: Buffer, index: number, hash = fnv1a(bytes, 0, bytes.length)): void {
    const list = this.byHash.get(hash);
    if (list) list.push({ bytes, index });
    else this.byHash.set(hash, [{ bytes, index }]);
  }
}

function fnv1a(buffer: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ buffer[i]!, 0x01000193);
  return hash;
}
