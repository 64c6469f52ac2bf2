import type { Knex } from "knex";
import type { Logger } from "pino";
import type { Authenticator } from "../auth/authenticator.js";
import { createApp, type AppDependencies } from "../server/create-app.js";
import { startHttpServer, type RunningServer } from "../server/http-server.js";
import { createPeerIndex } from "../peer-index/peer-index.js";
import { createDatasetVersionWatcher } from "../store/dataset-version-watcher.js";

/**
 * Serves until SIGTERM or SIGINT, then drains in-flight requests, runs the
 * `cleanup` steps (closing the pool first) and exits 0, within 10 s.
 */
export async function runServer(options: {
  knex: Knex;
  authenticator: Authenticator;
  log: Logger;
  port: number;
  host: string;
  asOf?: string;
  mounts?: AppDependencies["mounts"];
  /** The database, for the dataset version watcher's own connection and the peer index's builds. */
  databaseUrl: string;
  /** PEER_INDEX: answer the analytics from an in-memory snapshot, rebuilt on every import. */
  peerIndex: boolean;
  /** ANSWER_CACHE_MB, in bytes. */
  answerCacheBytes: number;
  cleanup?: () => Promise<void>;
}): Promise<RunningServer> {
  const { knex, log } = options;
  // Learns of every import within a second (LISTEN/NOTIFY), so that no answer computed
  // from older data outlives it; started in the background, it waits for the database.
  // The index builds its first snapshot when the watcher first reads the version, and
  // a new one on every later version.
  const peerIndex = options.peerIndex ? createPeerIndex({ connectionString: options.databaseUrl, log }) : undefined;
  const watcher = createDatasetVersionWatcher({
    connectionString: options.databaseUrl,
    log,
    onChange: (version) => {
      log.info({ datasetVersion: version }, "dataset version");
      peerIndex?.datasetChanged(version);
    },
  });
  void watcher.start();
  const server = await startHttpServer(createApp({ ...options, peerIndex, datasetVersion: () => watcher.current() }), options);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "draining");
    const hardStop = setTimeout(() => process.exit(1), 10_000).unref();
    await server.close(8_000);
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
  return server;
}
