import { Worker, type WorkerOptions } from "node:worker_threads";
import type { PeerSnapshot } from "./snapshot.js";

/** Ten times the build at Advisen scale: a build past it is stuck (a half-open connection, say). */
const BUILD_TIMEOUT_MS = 10 * 60_000;

/**
 * Builds a snapshot on a worker thread, so the server's event loop never waits on the
 * build's parsing, sorting and ranking (seconds at Advisen scale); the columns come
 * back transferred, without a copy. The worker runs what the main thread runs: the
 * compiled JavaScript, or the TypeScript sources through tsx as bin/cpb.js loads them
 * (loader hooks are not inherited).
 */
export function buildSnapshotInWorker(connectionString: string, timeoutMs = BUILD_TIMEOUT_MS): Promise<PeerSnapshot> {
  return new Promise((resolve, reject) => {
    let snapshot: PeerSnapshot | undefined;
    const worker = workerRunning(import.meta.url.endsWith(".ts") ? "./build-worker.ts" : "./build-worker.js", {
      workerData: { connectionString },
    });
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

/** A worker running the module at `relative` to this one: through tsx when it is TypeScript. */
function workerRunning(relative: string, options: WorkerOptions): Worker {
  const body = new URL(relative, import.meta.url);
  if (!relative.endsWith(".ts")) return new Worker(body, options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(body.href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
