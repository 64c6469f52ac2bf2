import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Identity } from "./identity.js";

export interface VerifiedTokensOptions {
  /** How long a verification is trusted at most. */
  maxAgeMs: number;
  /** Tokens held at most; the least recently used go first. */
  maxEntries: number;
  /** Milliseconds since the epoch: the verifier's clock. */
  now: () => number;
}

// A type, not an interface: it goes into JSON (/readyz) as it is.
export type VerifiedTokenStats = {
  hits: number;
  misses: number;
  entries: number;
};

/**
 * Tokens verified recently, with the identity each gave, so a token presented again
 * skips its signature check: an ES256 verification costs more than answering from a
 * cache (NOTES.md, "the warm path"; PostgREST and Envoy keep the same). Keyed by a
 * SHA-256 of the exact token, so the cache holds no token (but the last one seen, so a
 * token sent again is not hashed again). An entry lasts until the token's `exp` or
 * `maxAgeMs` after its verification, whichever is sooner; only verifications that
 * succeeded (signature, claims and scopes) are kept.
 */
export class VerifiedTokens {
  private readonly entries: LRUCache<string, { identity: Identity; until: number }>;
  private hits = 0;
  private misses = 0;
  /** The last token hashed and its key: consecutive requests mostly carry the same token. */
  private last = { token: "", key: "" };

  constructor(private readonly options: VerifiedTokensOptions) {
    this.entries = new LRUCache({ max: options.maxEntries });
  }

  /** The identity of a token verified within its lifetime, if any; a miss is not counted (lookup counts it). */
  known(token: string): Identity | undefined {
    const entry = this.entries.get(this.keyOf(token));
    if (entry === undefined || this.options.now() >= entry.until) return undefined;
    this.hits++;
    return entry.identity;
  }

  /**
   * The identity of a token verified within its lifetime, if any, and how to keep it
   * once it has passed verification (`expiresAt`: its `exp` claim, in seconds).
   */
  lookup(token: string): {
    identity: Identity | undefined;
    keep(identity: Identity, expiresAt: number | undefined): void;
  } {
    const key = this.keyOf(token);
    const entry = this.entries.get(key);
    const fresh = entry !== undefined && this.options.now() < entry.until;
    if (fresh) this.hits++;
    else {
      if (entry) this.entries.delete(key);
      this.misses++;
    }
    return {
      identity: fresh ? entry.identity : undefined,
      keep: (identity, expiresAt) => {
        const now = this.options.now();
        const until = Math.min(now + this.options.maxAgeMs, expiresAt === undefined ? Infinity : expiresAt * 1000);
        if (until > now) this.entries.set(key, { identity, until });
      },
    };
  }

  private keyOf(token: string): string {
    if (token !== this.last.token) this.last = { token, key: createHash("sha256").update(token).digest("base64url") };
    return this.last.key;
  }

  stats(): VerifiedTokenStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size };
  }
}
