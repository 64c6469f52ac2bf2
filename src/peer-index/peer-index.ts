import type { Logger } from "pino";
import { isReadConflict } from "../store/database-errors.js";
import { buildSnapshotInWorker } from "./build-in-worker.js";
import { releaseSnapshot } from "./release-snapshot.js";
import { startScanThread, type ScanThread } from "./scan-thread.js";
import { snapshotBytes, type PeerSnapshot } from "./snapshot.js";

/** What /readyz and the logs say of the index. */
// A type, not an interface: it goes into JSON as it is.
export type PeerIndexStatus = {
  state: "building" | "ready" | "stale";
  /** The dataset version of the snapshot answering, null before the first. */
  version: number | null;
  programs: number;
  losses: number;
  bytes: number;
  /** How long the answering snapshot took to build. */
  buildMs: number;
  /** The newest dataset version the database has confirmed. */
  datasetVersion: number | null;
  /** The scan thread (scan-thread.ts): off (by configuration, or on one core), starting, running, retired. */
  scanThread: "off" | "starting" | "running" | "retired";
};

export interface PeerIndex {
  /**
   * The snapshot to answer from, or undefined when SQL must answer: before the first
   * build, and when the snapshot is not of the database's version and the last build
   * failed (the database may be away: an old snapshot must not pass for the data it
   * confirmed last).
   */
  current(): PeerSnapshot | undefined;
  /** The database confirmed dataset version `version`: build it in the background if it changed. */
  datasetChanged(version: number): void;
  /** Whether the first snapshot is in. */
  ready(): boolean;
  status(): PeerIndexStatus;
  /** The thread that scans the current snapshot beside the server thread (scan-thread.ts), if there is one. */
  scanThread(): ScanThread | undefined;
  /** Stops retrying, and the scan thread; a build under way finishes unseen. */
  stop(): void;
}

export interface PeerIndexOptions {
  connectionString: string;
  log: Logger;
  /** The build; by default on a worker thread. */
  build?: (connectionString: string) => Promise<PeerSnapshot>;
  /** First retry delay after a failed build; doubled up to 30 s. Default 1 s. */
  retryDelayMs?: number;
  /** Whether to start a scan thread (on a machine of two cores or more). Default true. */
  scanThread?: boolean;
}

const MAX_RETRY_DELAY_MS = 30_000;
/** Builds a standby may cancel in a row before the next waits, as after any failure. */
const MAX_CONFLICTS_IN_A_ROW = 3;

/**
 * Holds the current snapshot and replaces it when the data changes (Lucene's
 * SearcherManager: build aside, swap the reference). A snapshot is never changed
 * after it is published; a request reads the reference once and keeps that snapshot.
 *
 * The database's version (from the watcher) is the truth: any change, up or down (a
 * restore), calls for a build. While a build runs the previous snapshot keeps
 * answering: it is a whole, committed version, and SQL could not carry the load
 * meanwhile. Once a build has failed, though, the previous snapshot is stale for all
 * anyone knows (the database may be away) and SQL answers until a build succeeds,
 * retries included.
 */
export function createPeerIndex(options: PeerIndexOptions): PeerIndex {
  const build = options.build ?? buildSnapshotInWorker;
  const firstRetryDelay = options.retryDelayMs ?? 1_000;
  const log = options.log;
  let snapshot: PeerSnapshot | undefined;
  let buildMs = 0;
  let bytes = 0;
  /** The version the database last confirmed. */
  let known: number | undefined;
  let building = false;
  /** A version was notified while a build ran. */
  let notifiedDuringBuild = false;
  let lastBuildFailed = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = firstRetryDelay;
  /** Builds the standby cancelled in a row, each built again at once. */
  let conflictsInARow = 0;
  const scanThread = options.scanThread === false ? undefined : startScanThread({ log });

  const fresh = () => snapshot !== undefined && (known === undefined || snapshot.version === known);
  const answering = () => (fresh() || (building && !lastBuildFailed) ? snapshot : undefined);

  function start(): void {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    notifiedDuringBuild = false;
    void rebuild();
  }

  async function rebuild(): Promise<void> {
    building = true;
    const started = performance.now();
    try {
      const next = await build(options.connectionString);
      if (stopped) return;
      // What the build read is the database's state; a newer version notified meanwhile builds again.
      const previous = snapshot;
      snapshot = next;
      // The scan thread lets go of the previous one before it is released.
      scanThread?.adopt(next);
      if (previous) releaseSnapshot(previous);
      buildMs = Math.round(performance.now() - started);
      bytes = snapshotBytes(next);
      if (!notifiedDuringBuild) known = next.version;
      lastBuildFailed = false;
      conflictsInARow = 0;
      retryDelay = firstRetryDelay;
      log.info({ peerIndex: statusNow() }, "peer index built");
    } catch (error) {
      if (stopped) return;
      if (isReadConflict(error) && ++conflictsInARow <= MAX_CONFLICTS_IN_A_ROW) {
        // A hot standby cancelled the build's long read to replay newer data: the
        // database is there and moving on, so build again at once, the previous
        // snapshot answering meanwhile as during any build. Builds cancelled again and
        // again (a build longer than max_standby_streaming_delay under a stream of
        // replays) go the way of any failure below: backoff, a warning, SQL answering.
        log.info({ err: error }, "peer index build cancelled by the standby's replay; building again");
        queueMicrotask(start); // before any request can find no build running
        return;
      }
      conflictsInARow = 0;
      lastBuildFailed = true;
      const delay = notifiedDuringBuild ? 0 : retryDelay; // a notification proves the database is back
      log.warn({ err: error, retryInMs: delay }, "peer index build failed");
      retryDelay = Math.min(retryDelay * 2, MAX_RETRY_DELAY_MS);
      retryTimer = setTimeout(start, delay).unref();
      return;
    } finally {
      building = false;
    }
    if (!fresh() && !stopped) start();
  }

  function statusNow(): PeerIndexStatus {
    return {
      state: snapshot === undefined ? "building" : answering() ? "ready" : "stale",
      version: snapshot?.version ?? null,
      programs: snapshot?.programs.day.length ?? 0,
      losses: snapshot?.losses.year.length ?? 0,
      bytes,
      buildMs,
      datasetVersion: known ?? null,
      scanThread: scanThread?.state() ?? "off",
    };
  }

  return {
    current: answering,
    datasetChanged(version) {
      if (stopped || version === known) return;
      known = version;
      if (building) notifiedDuringBuild = true;
      else start();
    },
    ready: () => snapshot !== undefined,
    status: statusNow,
    scanThread: () => scanThread,
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
      void scanThread?.close();
    },
  };
}
