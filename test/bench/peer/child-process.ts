import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A TypeScript module of this folder in its own Node process, driven over IPC. */
export function forkChild(file: string): ChildProcess {
  return fork(path.join(import.meta.dirname, file), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** Ends the child by closing its IPC channel (it exits when the channel closes). */
export async function closeChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.disconnect();
  await exited;
}
