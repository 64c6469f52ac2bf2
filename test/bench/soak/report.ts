import type { HealthProbeResult } from "../peer/health-probe.js";
import type { Readyz } from "../peer/readyz.js";
import type { ErrorTally } from "./error-tally.js";
import type { ImportRecord } from "./import-schedule.js";
import type { ClientWindow, OperationFigures } from "./latency-recorder.js";
import type { RssVerdict, WindowRss } from "./rss-watch.js";

/** One report period, as printed and written to the JSON. */
export interface SoakWindow {
  number: number;
  /** Seconds since the load started. */
  fromSeconds: number;
  toSeconds: number;
  clients: ClientWindow;
  rss: WindowRss;
  /** The server's event-loop delay since it started (/readyz), read at the period's end. */
  eventLoopDelayMs: Readyz["eventLoopDelayMs"];
  healthz: HealthProbeResult;
  datasetVersion: number | null;
  peerIndexVersion: number | null;
  /** The answering snapshot's size: the part of RSS that is data, not the process. */
  peerIndexBytes: number | null;
  /** An import or its rebuild was under way during some of the period. */
  importing: boolean;
}

export interface SoakVerdict {
  errors: ErrorTally;
  rss: RssVerdict;
  passed: boolean;
}

export const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "-");
const percent = (fraction: number) => `${fraction >= 0 ? "+" : ""}${(fraction * 100).toFixed(1)}%`;

/** A period: two summary lines, a row per operation, its most frequent distinct failures. */
export function formatWindow(w: SoakWindow, periods: number): string {
  const { clients, rss } = w;
  const memory =
    rss.maxBytes === 0
      ? "no RSS sample"
      : rss.quietBytes === null
        ? `RSS ${mib(rss.maxBytes)} peak (no sample outside imports)`
        : `RSS ${mib(rss.quietBytes)} quiet, ${mib(rss.maxBytes)} peak, ${rss.baseline ? "the baseline" : rss.growth === null ? "in warm-up" : `${percent(rss.growth)} vs baseline`}`;
  const loop = w.eventLoopDelayMs
    ? `event-loop delay (last 30-60 s) p99 ${ms(w.eventLoopDelayMs.p99)} ms, max ${ms(w.eventLoopDelayMs.max)} ms`
    : "event-loop delay n/a";
  const lines = [
    `period ${w.number}/${periods} (${clock(w.fromSeconds)}-${clock(w.toSeconds)}): ${clients.requests} requests, ${clients.seconds > 0 ? (clients.requests / clients.seconds).toFixed(1) : "-"}/s, ` +
      `${clients.failed} failed; dataset version ${w.datasetVersion ?? "?"}, index ${w.peerIndexVersion ?? "?"}${w.importing ? ", importing" : ""}`,
    `  ${memory}; ${loop}; /healthz max ${ms(w.healthz.maxMs)} ms`,
    ...operationTable(clients.operations),
  ];
  for (const kind of clients.failures.slice(0, 5)) lines.push(`  failed x${kind.count}: ${kind.what}`);
  return lines.join("\n");
}

/** A row per operation, in the mix's order. */
export function operationTable(operations: Record<string, OperationFigures>): string[] {
  const head = `  ${"operation".padEnd(30)}${["requests", "failed", "p50 ms", "p95 ms", "p99 ms", "max ms"].map((h) => h.padStart(9)).join("")}`;
  const rows = Object.entries(operations).map(
    ([name, f]) =>
      `  ${name.padEnd(30)}${[String(f.requests), String(f.failed), ms(f.p50Ms), ms(f.p95Ms), ms(f.p99Ms), ms(f.maxMs)].map((c) => c.padStart(9)).join("")}`,
  );
  return [head, ...rows];
}

/** The whole run: per operation, the imports, the errors, the RSS rule and its outcome. */
export function formatSummary(
  run: Record<string, OperationFigures>,
  seconds: number,
  imports: readonly ImportRecord[],
  verdict: SoakVerdict,
): string {
  const requests = Object.values(run).reduce((sum, f) => sum + f.requests, 0);
  const { rss, errors } = verdict;
  const lines = [
    `whole run: ${requests} requests in ${clock(seconds)}, ${(requests / seconds).toFixed(1)}/s`,
    ...operationTable(run),
  ];
  for (const i of imports) {
    lines.push(
      `import ${i.number}: ${i.importMs === null ? "failed" : `${(i.importMs / 1000).toFixed(1)} s`}` +
        `${i.version === null ? "" : `, version ${i.version} served ${((i.servedAfterMs ?? 0) / 1000).toFixed(1)} s after it`}`,
    );
  }
  lines.push(`errors: ${errors.count}`);
  for (const kind of errors.first) lines.push(`  x${kind.count}: ${kind.what}`);
  lines.push(rss.rule);
  lines.push(
    rss.judged
      ? `RSS: baseline ${mib(rss.baselineBytes!)} (period ${rss.baselineWindow}); largest growth ${percent(rss.worstGrowth!)} (period ${rss.worstWindow}): ${rss.passed ? "flat" : "GREW beyond 10%"}`
      : `RSS: not judged (${rss.baselineWindow === null ? "no period after the warm-up had quiet samples" : "no period after the baseline"}): run longer`,
  );
  lines.push(
    verdict.passed ? "PASS" : `FAIL${errors.count ? `: ${errors.count} errors` : ""}${rss.passed ? "" : "; RSS grew"}`,
  );
  return lines.join("\n");
}
