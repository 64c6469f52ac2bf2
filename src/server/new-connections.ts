import type { Server } from "node:net";

/**
 * Whether the listener accepted a connection since the signal was last asked: libuv
 * accepts one per loop iteration, so an iteration that accepted none found the kernel's
 * backlog empty (turns.ts defers to it; closing waits for it). One signal per reader.
 */
export function newConnectionsSignal(listener: Server): () => boolean {
  let accepted = 0;
  let seen = 0;
  listener.on("connection", () => accepted++);
  return () => {
    const arrived = accepted !== seen;
    seen = accepted;
    return arrived;
  };
}
