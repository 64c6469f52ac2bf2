import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

const RACER = path.join(import.meta.dirname, "lock-racer.ts");

/**
 * The next message of `child`, or a rejection naming `what` if it ends without sending
 * one. Its end is 'close', not 'exit': 'exit' may come before a message the racer sent
 * just before exiting is read from the IPC channel; 'close' comes after the channel
 * closed, so after every message.
 */
function nextMessage(child: ChildProcess, what: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let received = false;
    const onMessage = (message: unknown) => {
      received = true;
      child.off("close", onClose);
      resolve(message);
    };
    const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
      child.off("message", onMessage);
      if (!received) reject(new Error(`a racer ended (${signal ?? code}) without ${what}`));
    };
    child.once("message", onMessage);
    child.once("close", onClose);
  });
}

/**
 * Forks one lock-racer.ts per argument list, waits until every one is ready, lets them
 * all go at once and gives back what each sent when done, in the order given.
 */
export async function raceProcesses<T>(argLists: string[][]): Promise<T[]> {
  const children = argLists.map((args) =>
    fork(RACER, args, { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] }),
  );
  try {
    await Promise.all(children.map((child) => nextMessage(child, "saying it was ready")));
    const done = children.map((child) => nextMessage(child, "its result") as Promise<T>);
    for (const child of children) child.send("go");
    return await Promise.all(done);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
  }
}
