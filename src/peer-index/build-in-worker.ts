import { Worker } from "node:worker_threads";
import type { PeerSnapshot } from "./snapshot.js";

/** Ten times the build at Advisen scale: a build past it is stuck (a half-open connection, say). */
const BUILD_TIMEOUT_MS = 10 * 60_000;

/**
 * Builds a snapshot on a worker thread, so the server's event loop never waits on the
 * build's parsing, sorting and ranking (seconds at Advisen scale); the columns come
 * back transferred, without a copy. The worker loads the TypeScript sources through
 * tsx, as bin/cpb.js does for the main thread (loader hooks are not inherited).
 */
export function buildSnapshotInWorker(connectionString: string, timeoutMs = BUILD_TIMEOUT_MS): Promise<PeerSnapshot> {
  const tsx = import.meta.resolve("tsx/esm/api");
  const body = new URL("./build-worker.ts", import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(body)}); });`;
  return new Promise((resolve, reject) => {
    let snapshot: PeerSnapshot | undefined;
    const worker = new Worker(bootstrap, { eval: true, workerData: { connectionString } });
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
