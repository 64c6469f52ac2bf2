import { bumpDatasetVersion } from "../../../src/ingest/bump-dataset-version.js";
import { withClient } from "./bench-database.js";
import { recordFailure, type FailureLog } from "./failures.js";
import type { LoadGenerator, LoadResult, LoadSpec } from "./load-generator.js";
import type { RssSampler } from "./process-rss.js";
import { pollReadyz, sleep, type PeerIndexState, type Readyz } from "./readyz.js";
import { countFailures } from "./warm-run.js";

/** Lets the load's connections open before the version changes. */
const LOAD_SETTLE_MS = 500;

export interface RebuildResult {
  version: number;
  /** From the commit of the new version until /readyz reports it served; null when it never was. */
  servedWithinMs: number | null;
  /** What "served" was read from: the peer index's version, or the dataset version without one. */
  servedBy: "peerIndex.version" | "datasetVersion";
  peakRssBytes: number;
  peerIndex: PeerIndexState | null;
  load: LoadResult;
}

/**
 * What an import does to a running server, without the import: the dataset version
 * bumped and notified in one transaction (src/ingest/bump-dataset-version.ts). Under
 * load, then /readyz polled every 50 ms until the server serves the new version.
 */
export async function runRebuild(options: {
  databaseUrl: string;
  serverUrl: string;
  load: LoadGenerator;
  /** The broadest POST assessment at concurrency 32, kept up for the whole rebuild. */
  loadSpec: LoadSpec;
  rss: RssSampler;
  timeoutMs: number;
  failures: FailureLog;
}): Promise<RebuildResult> {
  const running = await options.load.start(options.loadSpec);
  await sleep(LOAD_SETTLE_MS);
  const { version, committedAt } = await withClient(options.databaseUrl, async (client) => {
    await client.query("begin");
    const bumped = await bumpDatasetVersion(client);
    await client.query("commit");
    return { version: bumped, committedAt: performance.now() };
  });
  await options.rss.sample();
  const served = (r: Readyz) =>
    r.peerIndex && r.peerIndex.state !== "off" ? r.peerIndex.version === version : r.datasetVersion === version;
  const readyz = await pollReadyz(options.serverUrl, served, { intervalMs: 50, timeoutMs: options.timeoutMs });
  const servedAt = performance.now();
  await options.rss.sample();
  const peakRssBytes = options.rss.peak(committedAt, performance.now());
  const load = await running.stop();
  countFailures(options.failures, "rebuild load (broadest POST assessment)", load);
  if (!readyz)
    recordFailure(options.failures, `rebuild: version ${version} not served within ${options.timeoutMs / 1000} s`);
  return {
    version,
    servedWithinMs: readyz ? servedAt - committedAt : null,
    servedBy: readyz?.peerIndex && readyz.peerIndex.state !== "off" ? "peerIndex.version" : "datasetVersion",
    peakRssBytes,
    peerIndex: readyz?.peerIndex ?? null,
    load,
  };
}
