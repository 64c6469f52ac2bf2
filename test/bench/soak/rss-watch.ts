import type { RssSample } from "../peer/process-rss.js";
import { median } from "../peer/stats.js";

/** The server's memory in one report period. */
export interface WindowRss {
  /** The largest sample, rebuilds included. */
  maxBytes: number;
  /** The median of the samples outside imports and rebuilds; null when the whole period was busy. */
  quietBytes: number | null;
  quietSamples: number;
  /** Set once there is a baseline: this period's quiet RSS over it, minus 1. */
  growth: number | null;
  /** This period is the baseline. */
  baseline: boolean;
}

export interface RssVerdict {
  judged: boolean;
  passed: boolean;
  /** The baseline period's number and quiet RSS. */
  baselineWindow: number | null;
  baselineBytes: number | null;
  /** The largest growth over the baseline among the later periods, and where. */
  worstGrowth: number | null;
  worstWindow: number | null;
  rule: string;
}

/** Fewer quiet samples than this in a period (of 120 at 60 s) and its median is not used. */
const MIN_QUIET_SAMPLES = 5;

export const RSS_GROWTH_LIMIT = 0.1;

/**
 * The RSS rule of the soak.
 *
 * Like with like: an import makes the server build a second snapshot beside the one
 * answering, so its RSS nearly doubles for a while whatever the health of the
 * process. Each period is therefore measured by the MEDIAN of its samples taken
 * OUTSIDE imports and rebuilds (from an import's start until a few seconds after the
 * index serves its version): one snapshot held, the phase every period can be compared
 * in; the median, not the minimum, so that a period is judged by where its memory
 * sits, not by the trough after a garbage collection. The peak of each period,
 * rebuilds included, is reported beside it.
 *
 * Warm-up: until `warmUpEndsAt()`, the later of `--warmup` minutes of load and the
 * settling of the first import's rebuild. Before then, caches fill (answers, tokens,
 * PostgreSQL's connections and plans), the JIT settles, and the heap sizes itself to
 * the load; and the first rebuild is the first time the allocator holds two
 * snapshots, after which it may keep some of that room.
 *
 * Baseline: the quiet RSS of the first period that starts after the warm-up and has
 * quiet samples. The run fails when any later period's quiet RSS is more than 10%
 * above it. A run too short for a period after the baseline is not judged on RSS.
 */
export function createRssWatch(options: { warmUpEndsAt(): number | undefined }) {
  let baseline: { window: number; bytes: number } | undefined;
  let worst: { window: number; growth: number } | undefined;

  return {
    /** Measures period `window` ([from, to], performance.now()) from the samples. */
    measure(
      window: number,
      from: number,
      to: number,
      samples: readonly RssSample[],
      busyAt: (at: number) => boolean,
    ): WindowRss {
      const inside = samples.filter((s) => s.at >= from && s.at < to);
      const quiet = inside.filter((s) => !busyAt(s.at)).map((s) => s.bytes);
      const quietBytes = quiet.length >= MIN_QUIET_SAMPLES ? median(quiet) : null;
      const maxBytes = inside.reduce((max, s) => Math.max(max, s.bytes), 0);
      const warmUpEnd = options.warmUpEndsAt();
      let growth: number | null = null;
      let isBaseline = false;
      if (quietBytes !== null && baseline) {
        growth = quietBytes / baseline.bytes - 1;
        if (!worst || growth > worst.growth) worst = { window, growth };
      } else if (quietBytes !== null && warmUpEnd !== undefined && from >= warmUpEnd) {
        baseline = { window, bytes: quietBytes };
        isBaseline = true;
      }
      return { maxBytes, quietBytes, quietSamples: quiet.length, growth, baseline: isBaseline };
    },
    verdict(): RssVerdict {
      const judged = baseline !== undefined && worst !== undefined;
      return {
        judged,
        passed: !judged || worst!.growth <= RSS_GROWTH_LIMIT,
        baselineWindow: baseline?.window ?? null,
        baselineBytes: baseline?.bytes ?? null,
        worstGrowth: worst?.growth ?? null,
        worstWindow: worst?.window ?? null,
        rule: RSS_RULE,
      };
    },
  };
}

export const RSS_RULE =
  "RSS rule: each period's RSS is the median of its samples outside imports and rebuilds (one snapshot held); " +
  "warm-up lasts --warmup minutes of load and until the first import's rebuild has settled; " +
  "the first period after it is the baseline; any later period more than 10% above it fails the run.";

export type RssWatch = ReturnType<typeof createRssWatch>;
