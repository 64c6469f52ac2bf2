import { parentPort, workerData } from "node:worker_threads";
import { buildSnapshot } from "./build-snapshot.js";
import { ownedBuffers } from "./snapshot.js";

/**
 * The body of the build's worker thread (build-in-worker.ts): builds the snapshot and
 * hands it to the server thread, its columns transferred (the program columns shared),
 * not copied.
 */
const { connectionString } = workerData as { connectionString: string };
const snapshot = await buildSnapshot(connectionString);
parentPort!.postMessage(snapshot, ownedBuffers(snapshot));
