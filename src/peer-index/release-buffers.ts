import { MessageChannel } from "node:worker_threads";
import { snapshotBuffers, type PeerSnapshot } from "./snapshot.js";

/**
 * Gives the memory of buffers nothing reads any more back now. Left to the garbage
 * collector, hundreds of MB of columns outside a small JS heap wait for a major
 * collection that may come only after the next build has doubled the memory again:
 * three rebuilds in a row reached 1.2 GB at Advisen scale.
 *
 * Node 20 has no ArrayBuffer.prototype.transfer, so the buffers are detached by
 * transferring them in a message that is never received: closing both ports of the
 * channel drops the message, and with it the only owner of the memory. A view of a
 * released buffer is empty, not stale.
 */
export function releaseBuffers(buffers: Iterable<ArrayBufferLike>): void {
  const unique = [...new Set(buffers)].filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer && buffer.byteLength > 0);
  if (unique.length === 0) return;
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(null, unique);
  port1.close();
  port2.close();
}

/**
 * Releases a replaced snapshot's columns. Only for a snapshot nothing reads any more:
 * each index computation reads the current snapshot within one synchronous call and
 * returns no view of its columns (index-engine.ts), so once the reference is swapped
 * no request can reach the old one.
 */
export function releaseSnapshot(snapshot: PeerSnapshot): void {
  releaseBuffers(snapshotBuffers(snapshot));
}
