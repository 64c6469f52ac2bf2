import type { Knex } from "knex";
import type { Logger } from "pino";
import type { Authenticator } from "../auth/authenticator.js";
import { describeRule, type DisclosureRule } from "../benchmark/disclosure-rule.js";
import { createApp, type AppDependencies } from "../server/create-app.js";
import { startHttpServer, type RunningServer } from "../server/http-server.js";
import { createPeerIndex } from "../peer-index/peer-index.js";
import { createDatasetVersionWatcher } from "../store/dataset-version-watcher.js";
import { startMetricsServer } from "../metrics/metrics-server.js";
import { createServiceMetrics } from "../metrics/service-metrics.js";
import { missingMallocSettings } from "./malloc-settings.js";

/**
 * Serves until SIGTERM or SIGINT, then drains (CONVENTIONS.md, Lifecycle and faults):
 * /readyz answers 503 at once; on SIGTERM the server keeps accepting and answering for
 * the drain period, each connection closed after its answer, so that the load balancer
 * stops sending before the listener closes; then in-flight requests finish, the
 * `cleanup` steps run (closing the pool first) and the process exits 0, within 10 s.
 * SIGINT (Ctrl-C at a terminal, nobody balancing load) skips the drain period.
 */
export async function runServer(options: {
  knex: Knex;
  authenticator: Authenticator;
  log: Logger;
  port: number;
  host: string;
  asOf?: string;
  mounts?: AppDependencies["mounts"];
  /** The broker's console, served under /console/. */
  console?: AppDependencies["console"];
  /** The database, for the dataset version watcher's own connection and the peer index's builds. */
  databaseUrl: string;
  /** PEER_INDEX: answer the analytics from an in-memory snapshot, rebuilt on every import. */
  peerIndex: boolean;
  /** PEER_INDEX_SCAN_THREAD: a second thread takes part of the longest index scans (scan-thread.ts). */
  scanThread: boolean;
  /** ANSWER_CACHE_MB, in bytes. */
  answerCacheBytes: number;
  /** DRAIN_PERIOD_MS. */
  drainMs: number;
  admission: AppDependencies["admission"];
  /** CORS_ORIGINS. */
  corsOrigins: readonly string[];
  /** DISCLOSURE_RULE and its thresholds. */
  disclosure: DisclosureRule;
  /** Who issues the tokens, for /openapi.json. */
  tokens: AppDependencies["tokens"];
  /** METRICS_PORT: where `/metrics` is served (on `host`); undefined, no metrics. */
  metricsPort?: number;
  cleanup?: () => Promise<void>;
}): Promise<RunningServer> {
  const { knex, log } = options;
  if (options.disclosure.kind === "none")
    log.warn("DISCLOSURE_RULE=none: partner data is answered without disclosure control");
  else log.info({ disclosure: describeRule(options.disclosure) }, "disclosure rule in force");
  const missing = process.platform === "linux" ? missingMallocSettings(process.env) : [];
  if (options.peerIndex && missing.length > 0) {
    // Without them, RSS steps up by about a snapshot after each of the first rebuilds
    // and its peak is higher (malloc-settings.ts; docs/operations.md, Memory).
    log.warn({ missing }, `set ${missing.join(" ")} in the environment: glibc keeps replaced snapshots otherwise`);
  }
  // Learns of every import within a second (LISTEN/NOTIFY), so that no answer computed
  // from older data outlives it; started in the background, it waits for the database.
  // The index builds its first snapshot when the watcher first reads the version, and
  // a new one on every later version.
  const peerIndex = options.peerIndex
    ? createPeerIndex({ connectionString: options.databaseUrl, log, scanThread: options.scanThread })
    : undefined;
  const metrics = options.metricsPort === undefined ? undefined : createServiceMetrics({ knex, peerIndex });
  const watcher = createDatasetVersionWatcher({
    connectionString: options.databaseUrl,
    log,
    onChange: (version) => {
      log.info({ datasetVersion: version }, "dataset version");
      metrics?.datasetVersionSeen(version);
      peerIndex?.datasetChanged(version);
    },
  });
  void watcher.start();
  let stopping = false;
  const app = createApp({
    ...options,
    peerIndex,
    metrics,
    datasetVersion: () => watcher.current(),
    datasetWaitingFor: () => watcher.waitingFor(),
    draining: () => stopping,
  });
  // Before the API's port: a metrics port taken stops start-up before any caller is served.
  const metricsServer =
    metrics && (await startMetricsServer(metrics.registry, { port: options.metricsPort!, host: options.host, log }));
  const server = await startHttpServer(metrics ? metrics.instrument(app) : app, options);
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drainMs = signal === "SIGTERM" ? options.drainMs : 0;
    log.info({ signal, drainMs }, "draining");
    const hardStop = setTimeout(() => process.exit(1), 10_000).unref();
    // What the drain period leaves of 8.5 s goes to requests still running; the pool and the rest close in what is left of 10 s.
    await server.close(8_500 - drainMs, drainMs);
    log.info("listener closed; requests finished");
    // Scraped through the drain (in-flight requests falling to none), closed with the API's
    // listener; it drops its connections rather than wait on them.
    await metricsServer?.close();
    await watcher.stop();
    peerIndex?.stop();
    await knex.destroy();
    await options.cleanup?.();
    clearTimeout(hardStop);
    log.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  log.info({ url: server.url }, "listening");
  if (metricsServer) log.info({ url: metricsServer.url }, "metrics");
  return server;
}
