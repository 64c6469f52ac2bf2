import { randomUUID } from "node:crypto";
import { link, open, readFile, unlink, writeFile } from "node:fs/promises";
import os from "node:os";

/** Who holds a lock: the lock file's one line, `PID HOST TOKEN` (an older lock's: `PID`). */
export interface LockHolder {
  pid: number;
  host: string;
  /** Names one acquisition: a pid alone repeats (a restarted container is pid 1 again). */
  token: string;
}

export interface FileLockOptions {
  /** How long to wait for another holder before giving up. */
  waitMs: number;
  /** How often to look again while another holds it. */
  pollMs?: number;
  /** Called once when the lock is held by another (undefined: the file names none), before waiting for it. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Awaited between finding a stale lock and taking it over: tests pause a contender there to race another. */
  beforeTakeover?: () => Promise<void>;
}

export interface FileLock {
  release(): Promise<void>;
}

export class FileLockTimeoutError extends Error {
  override name = "FileLockTimeoutError";
}

/** Tokens of the locks this process holds now: a file naming this pid and another token was left by an attempt that is over. */
const held = new Set<string>();

export function formatHolder(holder: LockHolder): string {
  return `${holder.pid} ${holder.host} ${holder.token}\n`;
}

/** "process PID on HOST", or "another process" when the lock file names none. */
export function describeHolder(holder: LockHolder | undefined): string {
  return holder ? `process ${holder.pid} on ${holder.host}` : "another process";
}

function parseHolder(text: string): LockHolder | undefined {
  const match = /^(\d+) (\S+) (\S+)\n?$/.exec(text);
  if (match) return { pid: Number(match[1]), host: match[2]!, token: match[3]! };
  // The format before this one: the holder's pid alone, written on this host (no shared
  // folder then). Its holder may still be building: waited for while it lives. No token:
  // never one this process holds, so this pid's is an earlier process's.
  const bare = /^(\d+)\s*$/.exec(text);
  return bare ? { pid: Number(bare[1]), host: os.hostname(), token: "" } : undefined;
}

/**
 * An exclusive lock held as a file, between processes and between callers of one
 * process (`npm start` and the two jobs of `npm test` may build the console at once).
 *
 * Taken atomically: the holder's line is written to a file of its own, then hard-linked
 * to the lock's name. link(2) fails with EEXIST when the name is taken, and the lock
 * never exists without its content (an O_EXCL create shows an empty file for a moment).
 *
 * A stale lock is taken over: empty or unreadable, or its process gone, or naming this
 * process with a token it does not hold (an earlier attempt that crashed, or an earlier
 * process that had this pid). Removing it by name would race: a faster contender may
 * have removed it and taken the lock already, and its lock would go. So a contender
 * first creates a guard named after the stale file's inode (O_EXCL: one wins), checks
 * under the guard that the name still is that file and still stale, and only then
 * removes it; then it competes for the lock like anyone. A lock file is only ever
 * removed by its holder or by the one guard's holder, so no two callers hold the lock.
 *
 * The deadline is checked on every pass, whatever happened in it: a name link(2) finds
 * taken and open(2) finds missing (a dangling symlink) must end in the timeout too.
 */
export async function acquireFileLock(file: string, options: FileLockOptions): Promise<FileLock> {
  const self: LockHolder = { pid: process.pid, host: os.hostname(), token: randomUUID() };
  const deadline = Date.now() + options.waitMs;
  let told = false;
  // Whether the last pass already tried again at once: the next one waits a poll.
  let hurried = false;
  for (;;) {
    if (await tryLink(file, self)) return { release: () => release(file, self) };
    const current = await readLock(file);
    // Gone (released in the meantime) or taken over: worth trying again at once. A guard
    // held by another (it is taking the lock over): wait as for a holder.
    let changed = current === undefined;
    if (current && isStale(current.holder)) {
      await options.beforeTakeover?.();
      changed = await removeStale(file, current.ino);
    }
    const again: boolean = changed && !hurried;
    if (!again && !told) {
      told = true;
      options.onWait?.(current?.holder);
    }
    if (Date.now() > deadline) {
      throw new FileLockTimeoutError(
        `waited ${options.waitMs / 1000} s for ${file}, held by ${describeHolder(current?.holder)}; if that process is gone, remove the file and any ${file}.takeover-* beside it`,
      );
    }
    hurried = again;
    if (!again) await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

/** Writes the holder's line beside the lock and links it to the lock's name; false when the name is taken. */
async function tryLink(file: string, self: LockHolder): Promise<boolean> {
  const draft = `${file}.${self.token}.tmp`;
  await writeFile(draft, formatHolder(self), { flag: "wx" });
  // Held before the link: a caller of this process reading the new lock must not find it stale.
  held.add(self.token);
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    held.delete(self.token);
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(draft);
  }
}

/** The lock file as it is now (its inode, read through one descriptor), or undefined when there is none. */
async function readLock(file: string): Promise<{ ino: number; holder: LockHolder | undefined } | undefined> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const { ino } = await handle.stat();
    return { ino, holder: parseHolder(await handle.readFile("utf8")) };
  } finally {
    await handle.close();
  }
}

function isStale(holder: LockHolder | undefined): boolean {
  if (!holder) return true;
  // Another machine's processes (a shared folder) cannot be seen: wait for it.
  if (holder.host !== os.hostname()) return false;
  if (holder.pid === process.pid) return !held.has(holder.token);
  return !isAlive(holder.pid);
}

/**
 * Removes the stale lock of inode `ino` if it is still there; false when another
 * contender holds the guard (it is removing it, or crashed doing so: a stale guard is
 * left for a person to remove, since taking it over would need a guard of its own).
 */
async function removeStale(file: string, ino: number): Promise<boolean> {
  const guard = `${file}.takeover-${ino}`;
  try {
    await writeFile(guard, formatHolder({ pid: process.pid, host: os.hostname(), token: randomUUID() }), {
      flag: "wx",
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    const current = await readLock(file);
    if (current?.ino === ino && isStale(current.holder)) await unlink(file);
    return true;
  } finally {
    await unlink(guard);
  }
}

async function release(file: string, self: LockHolder): Promise<void> {
  try {
    // Only our own: were it ever removed as stale, another's lock may stand there now.
    if ((await readFile(file, "utf8").catch(() => "")) === formatHolder(self)) await unlink(file);
  } finally {
    held.delete(self.token);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
