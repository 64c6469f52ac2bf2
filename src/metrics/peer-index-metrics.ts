import { Gauge, type Registry } from "prom-client";
import type { PeerIndex, PeerIndexStatus } from "../peer-index/peer-index.js";

const STATES: readonly PeerIndexStatus["state"][] = ["building", "ready", "stale"];

/**
 * The peer index's status (peer-index.ts, as /readyz shows it), read at scrape time.
 * Its row counts are the honest measure of the data served: the database keeps no
 * per-import counts, and counting millions of rows at every scrape would cost the
 * database what the index is there to spare it.
 */
export function registerPeerIndexMetrics(registry: Registry, peerIndex: PeerIndex): void {
  const registers = [registry];
  new Gauge({
    name: "cpb_peer_index_state",
    help: "1 for the peer index's state: building (no snapshot yet), ready (answering), stale (a build failed: SQL answers).",
    labelNames: ["state"] as const,
    registers,
    collect() {
      const { state } = peerIndex.status();
      for (const each of STATES) this.set({ state: each }, each === state ? 1 : 0);
    },
  });
  const single = (name: string, help: string, read: (status: PeerIndexStatus) => number | null) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read(peerIndex.status());
        if (value === null) this.remove();
        else this.set(value);
      },
    });
  single(
    "cpb_peer_index_version",
    "The dataset version of the answering snapshot (none before the first build).",
    (s) => s.version,
  );
  single("cpb_peer_index_bytes", "Bytes of the answering snapshot's columns.", (s) => s.bytes);
  single("cpb_peer_index_build_seconds", "How long the answering snapshot took to build.", (s) => s.buildMs / 1000);
  single("cpb_peer_index_programs", "Programs in the answering snapshot.", (s) => s.programs);
  single("cpb_peer_index_losses", "Loss events in the answering snapshot.", (s) => s.losses);
}
