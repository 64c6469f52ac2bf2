import type { PeerSnapshot } from "./snapshot.js";
import { workerRunning } from "./worker-module.js";

/** Ten times the build at Advisen scale: a build past it is stuck (a half-open connection, say). */
const BUILD_TIMEOUT_MS = 10 * 60_000;

/**
 * Builds a snapshot on a worker thread, so the server's event loop never waits on the
 * build's parsing, sorting and ranking (seconds at Advisen scale); the columns come
 * back transferred (the program columns shared), without a copy.
 */
export function buildSnapshotInWorker(connectionString: string, timeoutMs = BUILD_TIMEOUT_MS): Promise<PeerSnapshot> {
  return new Promise((resolve, reject) => {
    let snapshot: PeerSnapshot | undefined;
    const worker = workerRunning("./build-worker.ts", { workerData: { connectionString } });
    const deadline = setTimeout(() => {
      reject(new Error(`the peer index build took longer than ${timeoutMs / 1000} s`));
      void worker.terminate();
    }, timeoutMs).unref();
    worker.once("message", (message: PeerSnapshot) => (snapshot = message));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      clearTimeout(deadline);
      if (snapshot) resolve(snapshot);
      else reject(new Error(`the peer index build's worker stopped (exit code ${code}) without a snapshot`));
    });
  });
}
