import type { Logger } from "pino";
import { buildSnapshotInWorker } from "./build-in-worker.js";
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
};

export interface PeerIndex {
  /**
   * The snapshot to answer from, or undefined when SQL must answer: before the first
   * build, and when the snapshot is older than the database's version with no build
   * under way to replace it (the last one failed: the database may be away, and an
   * old snapshot must not pass for the data it confirmed last).
   */
  current(): PeerSnapshot | undefined;
  /** The database confirmed dataset version `version`: build it in the background if it is new. */
  datasetChanged(version: number): void;
  /** Whether the first snapshot is in. */
  ready(): boolean;
  status(): PeerIndexStatus;
  /** Stops retrying; a build under way finishes unseen. */
  stop(): void;
}

export interface PeerIndexOptions {
  connectionString: string;
  log: Logger;
  /** The build; by default on a worker thread. */
  build?: (connectionString: string) => Promise<PeerSnapshot>;
  /** First retry delay after a failed build; doubled up to 30 s. Default 1 s. */
  retryDelayMs?: number;
}

const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Holds the current snapshot and replaces it when the data changes (Lucene's
 * SearcherManager: build aside, swap the reference). A snapshot is never changed
 * after it is published; a request reads the reference once and keeps that snapshot.
 * During a rebuild the previous snapshot keeps answering: it is a whole, committed
 * version, and the SQL path could not carry the load meanwhile.
 */
export function createPeerIndex(options: PeerIndexOptions): PeerIndex {
  const build = options.build ?? buildSnapshotInWorker;
  const firstRetryDelay = options.retryDelayMs ?? 1_000;
  const log = options.log;
  let snapshot: PeerSnapshot | undefined;
  let buildMs = 0;
  let bytes = 0;
  let known: number | undefined;
  let building = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = firstRetryDelay;

  const behind = () => known !== undefined && (snapshot === undefined || snapshot.version < known);

  async function rebuild(): Promise<void> {
    building = true;
    const started = performance.now();
    try {
      const next = await build(options.connectionString);
      if (stopped) return;
      if (!snapshot || next.version >= snapshot.version) {
        snapshot = next;
        buildMs = Math.round(performance.now() - started);
        bytes = snapshotBytes(next);
        known = Math.max(known ?? next.version, next.version);
        log.info({ peerIndex: statusNow() }, "peer index built");
      }
      retryDelay = firstRetryDelay;
    } catch (error) {
      if (stopped) return;
      log.warn({ err: error, retryInMs: retryDelay }, "peer index build failed");
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        if (behind() && !building) void rebuild();
      }, retryDelay).unref();
      retryDelay = Math.min(retryDelay * 2, MAX_RETRY_DELAY_MS);
      return;
    } finally {
      building = false;
    }
    // A version committed while this build read an older one: build again.
    if (behind() && !stopped) void rebuild();
  }

  function statusNow(): PeerIndexStatus {
    return {
      state: snapshot === undefined ? "building" : behind() && !building ? "stale" : "ready",
      version: snapshot?.version ?? null,
      programs: snapshot?.programs.day.length ?? 0,
      losses: snapshot?.losses.year.length ?? 0,
      bytes,
      buildMs,
      datasetVersion: known ?? null,
    };
  }

  return {
    current: () => (behind() && !building ? undefined : snapshot),
    datasetChanged(version) {
      if (stopped || (known !== undefined && version <= known)) return;
      known = version;
      if (building) return; // it builds again when done
      // A notification proves the database is back: no need to wait for a pending retry.
      clearTimeout(retryTimer);
      retryTimer = undefined;
      void rebuild();
    },
    ready: () => snapshot !== undefined,
    status: statusNow,
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
    },
  };
}
