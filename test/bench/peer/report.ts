import type { ClassName, PeerClass } from "./classes.js";
import type { ColdResult } from "./cold-run.js";
import { centsText } from "./decimal-text.js";
import type { FailureLog } from "./failures.js";
import type { Machine } from "./machine.js";
import type { OperationName } from "./operations.js";
import type { HealthProbeResult } from "./health-probe.js";
import type { PeerIndexState, Readyz } from "./readyz.js";
import type { RebuildResult } from "./rebuild.js";
import type { WarmResult } from "./warm-run.js";

/** One class × operation. */
export interface ReportRow {
  class: ClassName;
  operation: OperationName;
  peers: number;
  /** The largest cold answer. */
  bytes: number;
  cold: ColdResult;
  /** The class's limit plus 1 ms for every whole 100 KiB of the answer. */
  limitMs: number;
  withinLimit: boolean;
  warm: WarmResult;
}

/** A class as found on the data, amounts as exact decimal text. */
export interface ClassReport {
  name: ClassName;
  naics: string[];
  coverageId: number;
  lineOfBusinessId: number[];
  exposureRangeLow: string;
  exposureRangeHigh: string;
  nextRevenueAbove: string | null;
  peers: number;
  limitMs: number;
}

export function classReport(c: PeerClass, peers: number): ClassReport {
  return {
    name: c.name,
    naics: c.naics,
    coverageId: c.coverageId,
    lineOfBusinessId: c.lineOfBusinessId,
    exposureRangeLow: centsText(c.exposureRangeLow),
    exposureRangeHigh: centsText(c.exposureRangeHigh),
    nextRevenueAbove: c.nextRevenueAbove === null ? null : centsText(c.nextRevenueAbove),
    peers,
    limitMs: c.limitMs,
  };
}

/** What the JSON file holds. */
export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  settings: Record<string, string | number | boolean>;
  data: {
    scale: number;
    companies: number;
    programs: number;
    losses: number;
    reusedDatabase: boolean;
    importMs: number | null;
  };
  classes: ClassReport[];
  server: {
    engine: string;
    readyMs: number;
    peerIndex: PeerIndexState | null;
    /** The server's own event-loop delay over the whole run (its longest block is `max`). */
    eventLoopDelayMs: Readyz["eventLoopDelayMs"];
    /** /healthz polled every 100 ms through the whole run. */
    healthz: HealthProbeResult;
  };
  rows: ReportRow[];
  rss: { quietBytes: number; peakBytes: number; rebuildPeakBytes: number; samples: number };
  rebuild: RebuildResult;
  failures: FailureLog;
}

/** The cold latency limit of CONVENTIONS.md: the class's, plus 1 ms per whole 100 KiB answered. */
export function limitFor(classLimitMs: number, bytes: number): number {
  return classLimitMs + Math.floor(bytes / (100 * 1024));
}

const ms = (v: number | null) => (v !== null && Number.isFinite(v) ? v.toFixed(1) : "n/a");
const whole = (v: number | null) => (v === null ? "n/a" : Math.round(v).toLocaleString("en-US"));
const mib = (bytes: number | null) => (bytes === null ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MiB`);

/** The index line: its figures, or why there are none. */
function indexLine(index: PeerIndexState | null): string {
  if (!index) return "n/a (the server reports no peer index)";
  if (index.state === "off") return "off (PEER_INDEX=off)";
  return `${ms(index.buildMs)} ms, ${mib(index.bytes)}, ${whole(index.programs)} programs, ${whole(index.losses)} losses, state ${index.state}, version ${index.version ?? "n/a"}`;
}

/** The readable table and the lines under it. */
export function formatReport(report: BenchReport): string {
  const header = [
    "class",
    "operation",
    "peers",
    "bytes",
    "cold p50",
    "cold p95",
    "limit",
    "pass",
    "warm req/s",
    "warm p50/p99",
    "bare req/s",
    "ratio",
  ];
  const body = report.rows.map((r) => [
    r.class,
    r.operation,
    whole(r.peers),
    whole(r.bytes),
    ms(r.cold.p50Ms),
    ms(r.cold.p95Ms),
    String(r.limitMs),
    r.withinLimit ? "pass" : "OVER",
    whole(r.warm.server.requestsPerSecond),
    `${r.warm.server.latencyP50Ms}/${r.warm.server.latencyP99Ms}`,
    whole(r.warm.bare.requestsPerSecond),
    `${(r.warm.ratio * 100).toFixed(1)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const left = new Set([0, 1, 7]);
  const line = (cells: string[]) =>
    cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const index = report.server.peerIndex;
  const rebuild = report.rebuild;
  const m = report.machine;
  return [
    `machine: ${m.cores} cores (${m.cpu}), ${mib(m.memoryBytes)}, node ${m.node}, ${m.postgres.split(" on ")[0]}`,
    `data: scale ${report.data.scale} (${whole(report.data.companies)} companies, ${whole(report.data.programs)} programs, ${whole(report.data.losses)} losses), engine ${report.server.engine}, ready in ${ms(report.server.readyMs)} ms`,
    `cold: ${report.settings.requests} requests per row after ${report.settings.warmup} unmeasured, concurrency 1; warm: ${report.settings.connections} connections for ${report.settings.durationSeconds} s in all, in rounds alternating with the bare server (ratio: the rounds' median); latencies in ms`,
    "",
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...body.map(line),
    "",
    `RSS quiet (ready, before requests): ${mib(report.rss.quietBytes)}`,
    `RSS peak (server process tree):     ${mib(report.rss.peakBytes)} (${report.rss.samples} samples)`,
    `RSS peak during the rebuild:        ${mib(report.rss.rebuildPeakBytes)}`,
    `index build (at start):             ${indexLine(index)}`,
    `index build (rebuild):              ${indexLine(rebuild.peerIndex)}`,
    `rebuild served within:              ${rebuild.servedWithinMs === null ? "never" : `${ms(rebuild.servedWithinMs)} ms`} (version ${rebuild.version}, by ${rebuild.servedBy}; ${whole(rebuild.load.requests)} requests meanwhile, ${rebuild.load.non2xx} non-2xx, ${rebuild.load.errors} errors)`,
    `event loop delay (server, run):     ${report.server.eventLoopDelayMs ? `p50 ${ms(report.server.eventLoopDelayMs.p50)} ms, p99 ${ms(report.server.eventLoopDelayMs.p99)} ms, max ${ms(report.server.eventLoopDelayMs.max)} ms` : "n/a"}`,
    `/healthz under load (every 100 ms): p99 ${ms(report.server.healthz.p99Ms)} ms, max ${ms(report.server.healthz.maxMs)} ms, ${report.server.healthz.failed} failed of ${report.server.healthz.samples}`,
    `failed requests:                    ${report.failures.count}`,
    ...report.failures.examples.map((e) => `  ${e}`),
  ].join("\n");
}
