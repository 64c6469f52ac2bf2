import { runImport } from "../import/import-run.js";
import { pollReadyz, readReadyz, type Readyz } from "../peer/readyz.js";

export interface ImportRecord {
  number: number;
  /** performance.now() at its start. */
  startedAt: number;
  /** `cpb import --replace` from spawn to exit; null when it failed. */
  importMs: number | null;
  /** The dataset version it committed, as the server reported it. */
  version: number | null;
  /** From the import's exit until the peer index answered from that version. */
  servedAfterMs: number | null;
  /** The import process's own peak (not the server's). */
  importPeakRssBytes: number | null;
}

/** A period in which the server may hold two snapshots, in performance.now() terms. */
export interface BusySpan {
  from: number;
  /** Infinity while it lasts. */
  to: number;
}

export interface ImportSchedule {
  imports(): readonly ImportRecord[];
  /** Whether the moment falls in an import or its rebuild (or their settling). */
  busyAt(at: number): boolean;
  /** Whether any of [from, to] does. */
  busyDuring(from: number, to: number): boolean;
  /** When the first import's rebuild had settled (the end of its busy span), once it has. */
  firstSettledAt(): number | undefined;
  /** Whether an import or its rebuild is under way now. */
  running(): boolean;
  /** Schedules no more; waits for the one under way and its rebuild. */
  stop(): Promise<void>;
}

/**
 * After the new snapshot is swapped in, the old one is released at once
 * (src/peer-index/release-snapshot.ts), but the allocator and the heap settle over a
 * few seconds: samples that soon after are still counted as the rebuild's.
 */
const SETTLE_MS = 5_000;

/**
 * `cpb import --replace DIR` every `everyMs` after `startAt` (none at or after `until`),
 * as an operator's job would run it, one at a time (one that outlasts `everyMs` makes
 * the next start at once), each followed until the server's peer index answers from
 * the version the import committed (/readyz: peerIndex.version equal to
 * datasetVersion, beyond the version before). A failed import, or a version never
 * served within `timeoutMs`, goes to `fail`: the soak counts it as an error.
 */
export function startImportSchedule(options: {
  databaseUrl: string;
  dataDir: string;
  serverUrl: string;
  startAt: number;
  everyMs: number;
  /** No import starts at or after this moment. */
  until: number;
  timeoutMs: number;
  fail(what: string): void;
  step(what: string): void;
}): ImportSchedule {
  const records: ImportRecord[] = [];
  const spans: BusySpan[] = [];
  let stopped = false;
  let wake: () => void = () => undefined;
  let current: Promise<void> | undefined;

  const once = async (number: number) => {
    const span: BusySpan = { from: performance.now(), to: Infinity };
    spans.push(span);
    const record: ImportRecord = {
      number,
      startedAt: span.from,
      importMs: null,
      version: null,
      servedAfterMs: null,
      importPeakRssBytes: null,
    };
    records.push(record);
    try {
      const before = (await readReadyz(options.serverUrl)).datasetVersion ?? 0;
      options.step(`import ${number}: cpb import --replace ${options.dataDir} (dataset version ${before})`);
      const run = await runImport(options.databaseUrl, ["--replace", options.dataDir]);
      record.importMs = run.ms;
      record.importPeakRssBytes = run.peakRssBytes;
      const importedAt = performance.now();
      const served = (r: Readyz) =>
        (r.datasetVersion ?? 0) > before && (r.peerIndex ? r.peerIndex.version === r.datasetVersion : true);
      const readyz = await pollReadyz(options.serverUrl, served, { intervalMs: 250, timeoutMs: options.timeoutMs });
      if (!readyz)
        throw new Error(`the server did not answer from the new version within ${options.timeoutMs / 1000} s`);
      record.version = readyz.datasetVersion;
      record.servedAfterMs = performance.now() - importedAt;
      options.step(
        `import ${number}: ${(run.ms / 1000).toFixed(1)} s; version ${record.version} served ${(record.servedAfterMs / 1000).toFixed(1)} s after it` +
          (readyz.peerIndex?.buildMs ? ` (index build ${(readyz.peerIndex.buildMs / 1000).toFixed(1)} s)` : ""),
      );
    } catch (error) {
      options.fail(`import ${number}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    } finally {
      span.to = performance.now() + SETTLE_MS;
    }
  };

  const loop = (async () => {
    for (let number = 1; !stopped; number++) {
      const due = options.startAt + number * options.everyMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, due - performance.now()));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped || due >= options.until) return;
      current = once(number);
      await current;
      current = undefined;
    }
  })();

  return {
    imports: () => records,
    busyAt: (at) => spans.some((s) => at >= s.from && at <= s.to),
    busyDuring: (from, to) => spans.some((s) => s.from <= to && s.to >= from),
    firstSettledAt: () => (spans[0] && spans[0].to <= performance.now() ? spans[0].to : undefined),
    running: () => current !== undefined,
    async stop() {
      stopped = true;
      wake();
      await loop;
    },
  };
}
