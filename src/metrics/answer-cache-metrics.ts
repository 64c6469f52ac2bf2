import { Counter, Gauge, type Registry } from "prom-client";
import type { AnswerCache } from "../load-control/answer-cache.js";
import { mirrorCount } from "./mirrored-count.js";

/** The answer cache's counts (answer-cache.ts), read at scrape time: its hot path only increments numbers. */
export function registerAnswerCacheMetrics(registry: Registry, cache: AnswerCache): void {
  const registers = [registry];
  new Counter({
    name: "cpb_answer_cache_hits_total",
    help: "Requests that found their answer kept (answered without computing it).",
    registers,
    collect() {
      mirrorCount(this, cache.counts().hits);
    },
  });
  new Counter({
    name: "cpb_answer_cache_misses_total",
    help: "Requests the answer cache was asked for and did not hold (always every one with ANSWER_CACHE_MB=0).",
    registers,
    collect() {
      mirrorCount(this, cache.counts().misses);
    },
  });
  new Counter({
    name: "cpb_answer_cache_not_modified_total",
    help: "Requests answered 304 Not Modified (If-None-Match naming the current ETag).",
    registers,
    collect() {
      mirrorCount(this, cache.counts().notModified);
    },
  });
  new Gauge({
    name: "cpb_answer_cache_bytes",
    help: "Bytes of answers kept (0 with ANSWER_CACHE_MB=0).",
    registers,
    collect() {
      this.set(cache.stats()?.bytes ?? 0);
    },
  });
  new Gauge({
    name: "cpb_answer_cache_entries",
    help: "Answers kept.",
    registers,
    collect() {
      this.set(cache.stats()?.entries ?? 0);
    },
  });
}
