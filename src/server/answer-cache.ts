import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/** What one request may do with the cache. */
export interface CacheTicket {
  /** A strong ETag of this request under the data answering now. */
  etag: string;
  /** The answer's bytes (chunks, in order), kept from an earlier request of the same data. */
  cached: readonly Buffer[] | undefined;
  /** Keeps a computed answer (its chunks, not a copy), unless the data changed while it was computed. */
  keep(chunks: readonly Buffer[]): void;
  /** The kept answer compressed in a content coding (`gzip`, `br`), if that was kept too. */
  encoded(coding: string): Buffer | undefined;
  /** Keeps the kept answer's bytes in a content coding, so later requests skip compressing it. */
  keepEncoded(coding: string, bytes: Buffer): void;
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
}

export interface AnswerCacheOptions {
  /** Room for kept answers; 0 keeps none, and the cache only gives ETags. */
  maxBytes: number;
  /** Larger answers are not kept (their ETags still work). */
  maxAnswerBytes: number;
  /**
   * Names the data answers are read from now (dataset version, peer snapshot version,
   * as-of date), or undefined when unknown. Any change empties the cache.
   */
  dataTag: () => string | undefined;
  /** Told when a change of data empties the cache. */
  onCleared?: (stats: AnswerCacheStats) => void;
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
  let hits = 0;
  let misses = 0;
  let notModified = 0;
  let evictions = 0;
  const entries =
    options.maxBytes > 0
      ? new LRUCache<string, KeptAnswer>({
          maxSize: options.maxBytes,
          sizeCalculation: (kept, key) => sizeOf(kept) + key.length,
          dispose: (_bytes, _key, reason) => {
            if (reason === "evict") evictions++;
          },
        })
      : undefined;
  let currentTag: string | undefined;

  const stats = (): AnswerCacheStats | null =>
    entries ? { hits, misses, notModified, entries: entries.size, bytes: entries.calculatedSize, evictions, dataTag: currentTag ?? null } : null;

  /** The data tag now, emptying the cache if it moved. */
  function dataTagNow(): string | undefined {
    const tag = options.dataTag();
    if (tag !== currentTag) {
      if (entries && currentTag !== undefined) options.onCleared?.(stats()!);
      entries?.clear();
      currentTag = tag;
    }
    return tag;
  }

  return {
    open(requestKey) {
      const tag = dataTagNow();
      if (tag === undefined) return undefined;
      let kept = entries?.get(requestKey);
      if (kept) hits++;
      else misses++;
      const etag = kept?.etag ?? etagOf(tag, requestKey);
      // An entry is set again to count its new size; only while it is still the one kept, for this data.
      const store = (entry: KeptAnswer) => {
        const bytes = sizeOf(entry);
        if (dataTagNow() === tag && bytes <= options.maxAnswerBytes && bytes + requestKey.length <= options.maxBytes) entries?.set(requestKey, entry);
      };
      return {
        etag,
        cached: kept?.chunks,
        keep(chunks) {
          kept = { chunks, etag, encoded: new Map() };
          store(kept);
        },
        encoded: (coding) => kept?.encoded.get(coding),
        keepEncoded(coding, bytes) {
          if (!kept || entries?.peek(requestKey) !== kept || sizeOf(kept) + bytes.length > options.maxAnswerBytes) return;
          // A new entry, not the old one changed: the cache counts an entry's size when it is set.
          kept = { ...kept, encoded: new Map(kept.encoded).set(coding, bytes) };
          store(kept);
        },
      };
    },
    notModified: () => void notModified++,
    stats,
  };
}

/** An answer's bytes, with the ETag they went out with (a hit skips hashing its request again) and its compressed forms. */
interface KeptAnswer {
  chunks: readonly Buffer[];
  etag: string;
  encoded: ReadonlyMap<string, Buffer>;
}

function sizeOf(kept: KeptAnswer): number {
  let bytes = byteLength(kept.chunks);
  for (const encoded of kept.encoded.values()) bytes += encoded.length;
  return bytes;
}

function etagOf(dataTag: string, requestKey: string): string {
  return `"${createHash("sha256").update(dataTag).update("\n").update(requestKey).digest("base64url").slice(0, 32)}"`;
}

function byteLength(chunks: readonly Buffer[]): number {
  return chunks.reduce((length, chunk) => length + chunk.length, 0);
}

/** Whether an If-None-Match header names the ETag (RFC 9110 13.1.2: weak comparison, or `*`). */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const candidate = tag.trim();
    return candidate === "*" || candidate.replace(/^W\//, "") === etag;
  });
}
