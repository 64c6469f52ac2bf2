import { Counter, Gauge, type Registry } from "prom-client";

/** Told of each dataset version the server learns of. */
export type DatasetVersionSeen = (version: number) => void;

/**
 * What a server can honestly say of imports, which run in other processes (`cpb
 * import`): every committed import bumps the dataset version by one in its own
 * transaction (bump-dataset-version.ts), and the version watcher hears it. The
 * version itself counts committed imports over the database's life (a gauge: a
 * restore may move it back); the versions seen count what this process learned,
 * where two imports committed while its watcher was reconnecting are seen as one.
 * The database keeps no row counts per import, so none are shown.
 */
export function createDatasetMetrics(registry: Registry): DatasetVersionSeen {
  const registers = [registry];
  const version = new Gauge({
    name: "cpb_dataset_version",
    help: "The dataset version served, as the version watcher last read it; every committed import adds one (absent until first read).",
    registers,
  });
  version.remove(); // absent, not 0, until the first read: 0 is a real version (no import yet)
  const seenAt = new Gauge({
    name: "cpb_dataset_version_seen_timestamp_seconds",
    help: "When this process learned of the current dataset version (within a second of the import's commit), in Unix seconds.",
    registers,
  });
  seenAt.remove();
  const seen = new Counter({
    name: "cpb_dataset_versions_seen_total",
    help: "Dataset versions this process learned of, the first read at start-up included; imports committed while the watcher was away count as one.",
    registers,
  });
  return (next) => {
    version.set(next);
    seenAt.set(Date.now() / 1000);
    seen.inc();
  };
}
