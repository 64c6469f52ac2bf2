import type { Knex } from "knex";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { PeerIndex } from "../peer-index/peer-index.js";
import { registerAdmissionMetrics } from "./admission-metrics.js";
import { registerAnswerCacheMetrics } from "./answer-cache-metrics.js";
import { registerDisclosureMetrics } from "./disclosure-metrics.js";
import type { AppMetrics } from "./app-metrics.js";
import { createDatasetMetrics, type DatasetVersionSeen } from "./dataset-metrics.js";
import { createOperationNamer } from "./operation-names.js";
import { registerPeerIndexMetrics } from "./peer-index-metrics.js";
import { registerPoolMetrics } from "./pool-metrics.js";
import { createRequestMetrics, type RequestHandler } from "./request-metrics.js";

/** Every metric of one server, in its own registry. */
export interface ServiceMetrics extends AppMetrics {
  /** What `/metrics` shows (metrics-server.ts). */
  readonly registry: Registry;
  /** Wraps the API port's handler: counts, times and follows every request. */
  instrument(handler: RequestHandler): RequestHandler;
  /** The version watcher heard a dataset version. */
  datasetVersionSeen: DatasetVersionSeen;
}

/**
 * A registry per server, never prom-client's global one: tests start several servers
 * in one process, and each must count its own requests. Node's own metrics
 * (process_*, nodejs_*) keep their usual names, for the dashboards made for them.
 */
export function createServiceMetrics({ knex, peerIndex }: { knex: Knex; peerIndex?: PeerIndex }): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const instrument = createRequestMetrics(registry, createOperationNamer());
  registerPoolMetrics(registry, knex);
  if (peerIndex) registerPeerIndexMetrics(registry, peerIndex);
  const datasetVersionSeen = createDatasetMetrics(registry);
  let watching = false;
  return {
    registry,
    instrument,
    datasetVersionSeen,
    watch({ answerCache, gate, disclosure }) {
      if (watching) throw new Error("one ServiceMetrics watches one app");
      watching = true;
      registerAnswerCacheMetrics(registry, answerCache);
      registerAdmissionMetrics(registry, gate);
      registerDisclosureMetrics(registry, disclosure);
    },
  };
}
