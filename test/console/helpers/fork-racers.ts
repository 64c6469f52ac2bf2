import { fork } from "node:child_process";
import path from "node:path";

const RACER = path.join(import.meta.dirname, "lock-racer.ts");

/**
 * Forks one lock-racer.ts per argument list, waits until every one is ready, lets them
 * all go at once and gives back what each sent when done, in the order given.
 */
export async function raceProcesses<T>(argLists: string[][]): Promise<T[]> {
  const children = argLists.map((args) => fork(RACER, args, { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  try {
    const ready = children.map((child) => new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`a racer exited (${code}) before it was ready`)));
    }));
    await Promise.all(ready);
    const done = children.map((child) => new Promise<T>((resolve, reject) => {
      child.once("message", (message) => resolve(message as T));
      child.once("exit", (code) => reject(new Error(`a racer exited (${code}) without its result`)));
    }));
    for (const child of children) child.send("go");
    return await Promise.all(done);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}
