import type { PeerClass } from "./classes.js";
import type { Cents } from "./decimal-text.js";
import type { Variant } from "./operations.js";

/** The request of the warm runs, and the one whose answer gives the class's peer count. */
export function baseVariant(peerClass: PeerClass): Variant {
  return {
    exposureRangeHigh: peerClass.exposureRangeHigh,
    premium: 5_000_000n, // 50,000.00
    limit: 500_000_000n, // 5,000,000.00
    retention: 2_500_000n, // 25,000.00
    clientLimit: 500_000_000n,
  };
}

/**
 * Every cold request of a class is different: its own amounts (seeded, so runs repeat),
 * and `exposureRangeHigh` moved up by one cent per request within the gap below the next
 * revenue of the class's NAICS, so the peers stay the same. A gap of fewer cents than
 * requests is walked round again (the amounts still differ).
 */
export function createVariants(peerClass: PeerClass, seed: number): { next(): Variant; distinctHighs(): number } {
  const random = mulberry32(seed);
  const between = (low: bigint, high: bigint): Cents => low + BigInt(Math.floor(random() * Number(high - low + 1n)));
  const gap = peerClass.nextRevenueAbove === null ? null : peerClass.nextRevenueAbove - peerClass.exposureRangeHigh;
  let step = 0n;
  return {
    next() {
      step += 1n;
      const offset = gap === null ? step : step % gap;
      return {
        exposureRangeHigh: peerClass.exposureRangeHigh + offset,
        premium: between(1_000_000n, 50_000_000n), // 10,000 to 500,000
        limit: between(100_000_000n, 5_000_000_000n), // 1M to 50M
        retention: between(0n, 100_000_000n), // 0 to 1M
        clientLimit: between(100_000_000n, 5_000_000_000n),
      };
    },
    distinctHighs: () => Number(gap === null || step < gap ? step : gap),
  };
}

/** A small seeded generator (mulberry32): the same cold requests every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
