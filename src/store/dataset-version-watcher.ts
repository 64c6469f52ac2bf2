import pg from "pg";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "./database-errors.js";

/** The channel servers LISTEN on to learn that the data changed; an import NOTIFYs it. */
export const DATASET_VERSION_CHANNEL = "cpb_dataset_version";

/** The application_name of the watcher's connection, so operators (and tests) can find it in pg_stat_activity. */
export const DATASET_WATCHER_APPLICATION_NAME = "cpb-dataset-watcher";

export interface DatasetVersionWatcherOptions {
  /** PostgreSQL connection string of the served database. */
  connectionString: string;
  /** Connection trouble is logged at warn, recovery at info. */
  log: Logger;
  /** Called with the new version whenever the known version changes (the first read included). */
  onChange?: (version: number) => void;
  /** First reconnect delay; doubled after each failed attempt. Default 500 ms. */
  minRetryDelayMs?: number;
  /** Ceiling of the reconnect delay. Default 10 s. */
  maxRetryDelayMs?: number;
  /** How often a hot standby's version is read (it cannot LISTEN). Default 250 ms. */
  standbyPollMs?: number;
}

/** How the watcher learns of new versions: NOTIFY on a primary, reading the table on a hot standby. */
export type WatchMode = "listen" | "poll";

/** Follows the dataset version of the database, so cached answers never outlive the data. */
export interface DatasetVersionWatcher {
  /**
   * Connects, LISTENs and reads the current version. Resolves once it knows the
   * version; while the database cannot be reached it keeps retrying with backoff
   * (and resolves, version still unknown, if stop() comes first).
   */
  start(): Promise<void>;
  /** The last version seen, or undefined before the first successful read. */
  current(): number | undefined;
  /**
   * While no version is known, or the connection is down: what the watcher is waiting
   * for, in words an operator can act on (for /readyz); undefined when it is following.
   */
  waitingFor(): string | undefined;
  /** How it follows the version on the current connection; undefined while it has none. */
  mode(): WatchMode | undefined;
  /** Closes the connection and cancels any pending reconnect. */
  stop(): Promise<void>;
}

/**
 * Watches `dataset_version` over one dedicated connection (never a pooled one: a
 * LISTEN belongs to its session, and a pool would hand that session to others or
 * close it when idle).
 *
 * On a primary, every import NOTIFYs the new version at commit
 * (bump-dataset-version.ts), which reaches the watcher within milliseconds; that is
 * how running servers meet DATA-FORMAT.md's "within one second of `cpb import`
 * exiting 0". A notification sent while the connection is down is lost for good, so
 * after every reconnect the watcher reads the table again.
 *
 * A hot standby refuses LISTEN (SQLSTATE 25006), and a NOTIFY is never replicated to
 * it: there the watcher reads the table every `standbyPollMs` instead. What it reads
 * is what the standby has replayed, and an import's rows and its version bump are one
 * transaction, so the version never runs ahead of the data the replica reads. (LISTEN
 * on the primary would hear of a version before the standby has replayed it, and
 * would need a second connection string and a wait for the replay: issue 48.) A
 * poll costs one indexed read of a one-row table, about 0.1 ms of the standby's time.
 */
export function createDatasetVersionWatcher(options: DatasetVersionWatcherOptions): DatasetVersionWatcher {
  const log = options.log;
  const minDelay = options.minRetryDelayMs ?? 500;
  const maxDelay = options.maxRetryDelayMs ?? 10_000;
  const pollMs = options.standbyPollMs ?? 250;
  let version: number | undefined;
  let mode: WatchMode | undefined;
  let lastFailure: string | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let client: pg.Client | undefined;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = minDelay;
  let started: Promise<void> | undefined;
  let resolveStarted: (() => void) | undefined;

  function publish(next: number): void {
    if (next === version) return;
    version = next;
    try {
      options.onChange?.(next);
    } catch (error) {
      // onChange runs inside a socket event handler: a throw there would end the process.
      log.warn({ err: error, version: next }, "dataset version watcher: onChange failed");
    }
  }

  /** One session: connect, LISTEN or start polling, read. Rejects (with the client closed) when any step fails. */
  async function connect(): Promise<void> {
    const session = new pg.Client({
      connectionString: options.connectionString,
      application_name: DATASET_WATCHER_APPLICATION_NAME,
      connectionTimeoutMillis: 5_000,
      // A read that never returns (a network that drops packets) must fail, not stop the
      // polls for good: the OS's keepalive default is two hours.
      query_timeout: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // The highest version this session has seen. The read below can finish after
    // notifications of later commits were delivered, so it must not move back past them.
    let seen = -1;
    let ready = false;
    const lost = (error?: Error) => {
      if (!ready || session !== client || stopped) return;
      client = undefined;
      mode = undefined;
      clearTimeout(pollTimer);
      lastFailure = describeFailure(error);
      log.warn({ err: error }, "dataset version watcher: connection lost; reconnecting");
      session.end().catch(() => {});
      scheduleRetry();
    };
    // Without an 'error' listener a dropped connection would be an uncaught exception.
    session.on("error", (error) => lost(error));
    session.on("end", () => lost());
    session.on("notification", (message) => {
      if (session !== client || message.channel !== DATASET_VERSION_CHANNEL) return;
      const notified = parseVersion(message.payload);
      if (notified === undefined) {
        log.warn({ payload: message.payload }, "dataset version watcher: ignoring a payload that is not a version");
        return;
      }
      if (notified <= seen) return;
      seen = notified;
      if (ready) publish(notified);
    });
    const readVersion = async () => {
      const result = await session.query<{ version: string }>("select version::text as version from dataset_version");
      const read = parseVersion(result.rows[0]?.version);
      if (read === undefined) throw new Error("dataset_version has no row: run `cpb migrate` on the primary");
      return read;
    };
    // On a standby, one read at a time, the next pollMs after the last answered.
    const poll = () => {
      pollTimer = setTimeout(() => {
        readVersion().then(
          (read) => {
            if (session !== client || stopped) return;
            // A restore can move the version down: the database's version is the truth.
            seen = read;
            retryDelay = minDelay; // the session works: a later loss starts its backoff afresh
            publish(read);
            poll();
          },
          (error: unknown) => lost(error as Error),
        );
      }, pollMs);
    };

    client = session;
    try {
      await session.connect();
      const recovering = (await session.query<{ standby: boolean }>("select pg_is_in_recovery() as standby")).rows[0]!
        .standby;
      // Read after LISTEN: a commit before the LISTEN is in this read, any later one is notified.
      if (!recovering) await session.query(`listen ${pg.escapeIdentifier(DATASET_VERSION_CHANNEL)}`);
      const read = await readVersion();
      if (stopped || session !== client) throw new Error("dataset version watcher stopped");
      seen = Math.max(seen, read);
      ready = true;
      mode = recovering ? "poll" : "listen";
      lastFailure = undefined;
      publish(seen);
      if (recovering) poll();
    } catch (error) {
      if (session === client) client = undefined;
      lastFailure = describeFailure(error);
      await session.end().catch(() => {});
      throw error;
    }
  }

  function scheduleRetry(): void {
    if (stopped || retryTimer) return;
    const delay = retryDelay;
    retryDelay = Math.min(retryDelay * 2, maxDelay);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          // On a standby the first poll that answers resets the backoff: a session that
          // connects but cannot read must not reconnect at the shortest delay for ever.
          if (mode === "listen") retryDelay = minDelay;
          log.info({ version, mode }, "dataset version watcher: following the version again");
          resolveStarted?.();
        },
        (error: unknown) => {
          if (stopped) return;
          log.warn(
            { err: error, retryInMs: retryDelay, waitingFor: lastFailure },
            "dataset version watcher: no version",
          );
          scheduleRetry();
        },
      );
    }, delay);
  }

  return {
    start() {
      started ??= new Promise<void>((resolve) => {
        resolveStarted = resolve;
        if (stopped) return resolve();
        connect().then(resolve, (error: unknown) => {
          if (stopped) return resolve();
          log.warn(
            { err: error, retryInMs: retryDelay, waitingFor: lastFailure },
            "dataset version watcher: no version",
          );
          scheduleRetry();
        });
      });
      return started;
    },
    current: () => version,
    waitingFor: () => (client && mode ? undefined : (lastFailure ?? "the dataset version: connecting to the database")),
    mode: () => (client ? mode : undefined),
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(pollTimer);
      retryTimer = undefined;
      resolveStarted?.();
      const session = client;
      client = undefined;
      await session?.end().catch(() => {});
    },
  };
}

/**
 * Why no version could be read, for an operator: what the database said when it
 * answered (a missing table names the migration to run), else that it cannot be reached.
 */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error ?? "the connection ended");
  if (error === undefined || isDatabaseUnavailable(error)) return `the database cannot be reached: ${message}`;
  if ((error as { code?: unknown }).code === "42P01")
    return `the database has no dataset_version table: run \`cpb migrate\` on the primary (${message})`;
  return `the database refused the dataset version's read: ${message}`;
}

/** A version as PostgreSQL prints a bigint; undefined for anything else. */
function parseVersion(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,16}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
