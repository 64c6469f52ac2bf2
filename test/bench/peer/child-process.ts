import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

/**
 * A TypeScript module in its own Node process, driven over IPC: `file` is relative to
 * this folder, or absolute. `advanced` serialization carries what JSON cannot (bigint
 * amounts of a peer class).
 */
export function forkChild(file: string, serialization: "json" | "advanced" = "json"): ChildProcess {
  return fork(path.resolve(import.meta.dirname, file), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization,
  });
}

/** Ends the child by closing its IPC channel (it exits when the channel closes). */
export async function closeChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.disconnect();
  await exited;
}
