import { MessageChannel } from "node:worker_threads";
import { collectGarbage } from "./forced-collection.js";
import { ownedBuffers, type PeerSnapshot } from "./snapshot.js";

/**
 * Gives a replaced snapshot's column memory back to the system now. Left to the
 * garbage collector, hundreds of MB of columns outside a small JS heap wait for a
 * major collection that may come only after the next build has doubled the memory
 * again: three rebuilds in a row reached 1.2 GB at Advisen scale.
 *
 * The thread's own buffers are detached: Node 20 has no ArrayBuffer.prototype.transfer,
 * so they are transferred in a message that is never received (closing both ports of
 * the channel drops the message, and with it the only owner of the memory). The
 * program columns are shared with the scan thread (scan-thread.ts) and cannot be
 * detached: they are freed once both threads have dropped and collected them, so the
 * caller has handed the scan thread its next snapshot first (it collects there), and
 * this thread collects at its next turn, once the caller's frames holding the snapshot
 * are gone.
 *
 * Only for a snapshot nothing reads any more: each index computation reads the
 * current snapshot within one synchronous call and returns no view of its columns
 * (index-engine.ts), so once the reference is swapped, the old one is unreachable by
 * any request. An owned column read after this is empty, not stale. The one exception
 * is the cases' ids, rendered bytes and where each case starts: an answer reads its
 * cases from them once it knows its form, and lists long runs as views while it writes
 * (loss-figures.ts), so they are left to the garbage collector (7% of the snapshot at
 * Advisen scale).
 */
export function releaseSnapshot(snapshot: PeerSnapshot): void {
  const { caseId, caseJson, caseJsonStart, caseProto, caseProtoStart } = snapshot.losses;
  const kept = new Set([caseId.buffer, caseJson.buffer, caseJsonStart.buffer, caseProto.buffer, caseProtoStart.buffer]);
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(
    null,
    ownedBuffers(snapshot).filter((buffer) => !kept.has(buffer)),
  );
  port1.close();
  port2.close();
  setImmediate(collectGarbage);
}
