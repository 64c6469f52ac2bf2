import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/** What one request may do with the cache. */
export interface CacheTicket {
  /** A strong ETag of this request under the data answering now. */
  etag: string;
  /** The answer's bytes (chunks, in order), kept from an earlier request of the same data. */
  cached: readonly Buffer[] | undefined;
  /** The dataset version the kept answer was read from, as it was kept with it. */
  cachedDataVersion: string | undefined;
  /**
   * Keeps a computed answer (its chunks, not a copy) and the dataset version it was read
   * from, unless the data changed while it was computed; whether it did (if not, the
   * chunks are the caller's again once written).
   */
  keep(chunks: readonly Buffer[], dataVersion?: string): boolean;
  /** The kept answer compressed in a content coding (`gzip`, `br`), if that was kept too. */
  encoded(coding: string): readonly Buffer[] | undefined;
  /** Keeps the kept answer's bytes (chunks, in order) in a content coding, so later requests skip compressing it. */
  keepEncoded(coding: string, chunks: readonly Buffer[]): void;
  /**
   * Whether an answer read from `dataVersion` belongs to the data this ticket's ETag
   * names: not when it is newer. A replica hears of a new version up to a poll after its
   * reads see it; such an answer gets no ETag and is not kept, so that one ETag never
   * names two bodies.
   */
  vouchesFor(dataVersion: string | undefined): boolean;
}

// A type, not an interface: it goes into JSON (/readyz) as it is.
export type AnswerCacheStats = {
  hits: number;
  misses: number;
  notModified: number;
  entries: number;
  bytes: number;
  evictions: number;
  /** The data the entries belong to: dataset version, snapshot version, as-of date. */
  dataTag: string | null;
};

export interface AnswerCache {
  /** For a request in canonical form; undefined when no dataset version is known (nothing is cached then). */
  open(requestKey: string): CacheTicket | undefined;
  /** A 304 was answered from a ticket. */
  notModified(): void;
  /** Null when it has no room for answers (ETags only). */
  stats(): AnswerCacheStats | null;
  /** Requests answered from a kept answer, and not, since start: with room or without (metrics). */
  counts(): { hits: number; misses: number; notModified: number };
}

export interface AnswerCacheOptions {
  /** Room for kept answers; 0 keeps none, and the cache only gives ETags. */
  maxBytes: number;
  /** Larger answers are not kept (their ETags still work). */
  maxAnswerBytes: number;
  /**
   * Answers larger than this are kept only when asked for a second time: a one-off
   * megabyte answer would push out hundreds of small ones, and churning megabytes
   * through the cache grows the heap the process keeps.
   */
  askedTwiceOver?: number;
  /**
   * Names the data answers are read from now (dataset version, peer snapshot version,
   * as-of date), or undefined when unknown. Any change empties the cache.
   */
  dataTag: () => string | undefined;
  /** Told when a change of data empties the cache. */
  onCleared?: (stats: AnswerCacheStats) => void;
  /** The dataset versions a data tag names (an answer's `dataVersion` may be no newer); any, when unset. */
  tagVersions?: (tag: string) => readonly string[];
}

/**
 * Encoded answers by canonical request, for the data answering now. Answers change only
 * when the data does, and the data tag says when: the dataset version (the watcher
 * hears an import's commit within a second) and the peer snapshot's (a rebuild swaps
 * it in later). A change empties the cache before anything else is read or kept, and
 * an answer computed while the data changed is not kept, so no answer outlives its
 * data. ETags carry the tag taken before the answer was read, so an ETag never claims
 * newer data than its answer holds.
 */
export function createAnswerCache(options: AnswerCacheOptions): AnswerCache {
  return new KeptAnswers(options);
}

// Classes rather than closures: a ticket is opened on every request, and its methods are
// better made once, on a prototype.
class KeptAnswers implements AnswerCache {
  private hits = 0;
  private misses = 0;
  private notModifiedCount = 0;
  private evictions = 0;
  private readonly entries: LRUCache<string, KeptAnswer> | undefined;
  /** Requests whose large answer was computed once (keys only). */
  private readonly askedOnce = new LRUCache<string, true>({ max: ASKED_ONCE_REMEMBERED });
  private currentTag: string | undefined;

  constructor(readonly options: AnswerCacheOptions) {
    this.entries =
      options.maxBytes > 0
        ? new LRUCache<string, KeptAnswer>({
            maxSize: options.maxBytes,
            sizeCalculation: (kept, key) => sizeOf(kept) + key.length,
            dispose: (_bytes, _key, reason) => {
              if (reason === "evict") this.evictions++;
            },
          })
        : undefined;
  }

  open(requestKey: string): CacheTicket | undefined {
    const tag = this.dataTagNow();
    if (tag === undefined) return undefined;
    const kept = this.entries?.get(requestKey);
    if (kept) this.hits++;
    else this.misses++;
    return new Ticket(this, requestKey, tag, kept);
  }

  notModified(): void {
    this.notModifiedCount++;
  }

  counts(): { hits: number; misses: number; notModified: number } {
    return { hits: this.hits, misses: this.misses, notModified: this.notModifiedCount };
  }

  stats(): AnswerCacheStats | null {
    const { hits, misses, evictions, entries } = this;
    return entries
      ? {
          hits,
          misses,
          notModified: this.notModifiedCount,
          entries: entries.size,
          bytes: entries.calculatedSize,
          evictions,
          dataTag: this.currentTag ?? null,
        }
      : null;
  }

  /** The data tag now, emptying the cache if it moved. */
  dataTagNow(): string | undefined {
    const tag = this.options.dataTag();
    if (tag !== this.currentTag) {
      if (this.entries && this.currentTag !== undefined) this.options.onCleared?.(this.stats()!);
      this.entries?.clear();
      this.currentTag = tag;
    }
    return tag;
  }

  /** The entry kept for a request now, if any. */
  peek(requestKey: string): KeptAnswer | undefined {
    return this.entries?.peek(requestKey);
  }

  /**
   * Keeps (or keeps again, to count its new size) an entry read from `tag`'s data, unless
   * the data moved or it is too large; whether it is kept.
   */
  store(requestKey: string, tag: string, entry: KeptAnswer): boolean {
    const bytes = sizeOf(entry);
    const { maxAnswerBytes, maxBytes, askedTwiceOver = Infinity } = this.options;
    if (this.dataTagNow() !== tag || bytes > maxAnswerBytes || bytes + requestKey.length > maxBytes) return false;
    if (bytes > askedTwiceOver && !this.askedOnce.has(requestKey) && !this.entries?.has(requestKey)) {
      this.askedOnce.set(requestKey, true);
      return false;
    }
    this.entries?.set(requestKey, entry);
    return this.entries?.peek(requestKey) === entry;
  }
}

class Ticket implements CacheTicket {
  readonly etag: string;
  readonly cached: readonly Buffer[] | undefined;
  readonly cachedDataVersion: string | undefined;

  constructor(
    private readonly cache: KeptAnswers,
    private readonly requestKey: string,
    private readonly tag: string,
    private kept: KeptAnswer | undefined,
  ) {
    this.etag = kept?.etag ?? etagOf(tag, requestKey);
    this.cached = kept?.chunks;
    this.cachedDataVersion = kept?.dataVersion;
  }

  vouchesFor(dataVersion: string | undefined): boolean {
    const versions = this.cache.options.tagVersions?.(this.tag)?.map(Number).filter(Number.isFinite);
    if (dataVersion === undefined || versions === undefined || versions.length === 0) return true;
    return Number(dataVersion) <= Math.max(...versions);
  }

  keep(chunks: readonly Buffer[], dataVersion?: string): boolean {
    if (!this.vouchesFor(dataVersion)) return false;
    this.kept = { chunks, etag: this.etag, dataVersion, encoded: new Map() };
    return this.cache.store(this.requestKey, this.tag, this.kept);
  }

  encoded(coding: string): readonly Buffer[] | undefined {
    return this.kept?.encoded.get(coding);
  }

  keepEncoded(coding: string, chunks: readonly Buffer[]): void {
    const { kept } = this;
    if (
      !kept ||
      this.cache.peek(this.requestKey) !== kept ||
      sizeOf(kept) + lengthOf(chunks) > this.cache.options.maxAnswerBytes
    )
      return;
    // A new entry, not the old one changed: the cache counts an entry's size when it is set.
    this.kept = { ...kept, encoded: new Map(kept.encoded).set(coding, chunks) };
    this.cache.store(this.requestKey, this.tag, this.kept);
  }
}

/** Keys of large answers asked for once, remembered until asked again. */
const ASKED_ONCE_REMEMBERED = 1000;

/**
 * An answer's bytes, with the ETag they went out with (a hit skips hashing its request
 * again), the dataset version they were read from, and their compressed forms.
 */
interface KeptAnswer {
  chunks: readonly Buffer[];
  etag: string;
  dataVersion: string | undefined;
  encoded: ReadonlyMap<string, readonly Buffer[]>;
}

function sizeOf(kept: KeptAnswer): number {
  let bytes = lengthOf(kept.chunks);
  for (const encoded of kept.encoded.values()) bytes += lengthOf(encoded);
  return bytes;
}

function lengthOf(chunks: readonly Buffer[]): number {
  let bytes = 0;
  for (const chunk of chunks) bytes += chunk.length;
  return bytes;
}

function etagOf(dataTag: string, requestKey: string): string {
  return `"${createHash("sha256").update(dataTag).update("\n").update(requestKey).digest("base64url").slice(0, 32)}"`;
}

/** Whether an If-None-Match header names the ETag (RFC 9110 13.1.2: weak comparison, or `*`). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const candidate = tag.trim();
    return candidate === "*" || candidate.replace(/^W\//, "") === etag;
  });
}
