// The lock of the console's build (file-lock.ts): taken atomically, waited for while
// its holder lives (an older lock's bare pid too), taken over when stale (its process
// gone, empty, or this pid's from an attempt that is over) by exactly one contender,
// between callers of one process and between processes; never waited for past its time.
import t from "tap";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os, { tmpdir } from "node:os";
import path from "node:path";
import {
  acquireFileLock,
  FileLockTimeoutError,
  formatHolder,
  type FileLock,
  type LockHolder,
} from "../../src/console/file-lock.js";
import { raceProcesses } from "./helpers/fork-racers.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function tempLock(t: Teardown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "cpb-file-lock-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return path.join(dir, "console.lock");
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }),
  );
}

const host = os.hostname();
/** Far beyond any wait a passing test has, even on a loaded machine: only a broken lock runs into it. */
const LONG_WAIT_MS = 60_000;
/**
 * Whether `promise` settles within a moment. Used only where the answer must be false
 * (a caller must still be waiting): a slow machine can only make it false sooner, so only
 * a broken lock fails it.
 */
const settled = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise((resolve) => setTimeout(() => resolve(false), 150)),
  ]);
/** A promise and the function that resolves it with its argument. */
function signal<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
const LINE = new RegExp(`^${process.pid} ${host} [\\w-]+\\n$`);

t.test("held: the next caller waits for the release, then holds it; the file names the holder", async (t) => {
  const file = await tempLock(t);
  const first = await acquireFileLock(file, { waitMs: LONG_WAIT_MS, pollMs: 10 });
  const firstLine = await readFile(file, "utf8");
  t.match(firstLine, LINE, "pid, host and token, written before the file appears");
  const waited = signal<LockHolder | undefined>();
  const second = acquireFileLock(file, { waitMs: LONG_WAIT_MS, pollMs: 10, onWait: waited.resolve });
  // Whichever comes first: told to wait, or (a broken lock) holding it too.
  const outcome = await Promise.race([
    waited.promise.then((holder) => ({ waitedFor: holder })),
    second.then(() => "held it too"),
  ]);
  t.same(
    outcome,
    { waitedFor: { pid: process.pid, host, token: firstLine.split(" ")[2]!.trim() } },
    "the second caller waits, told who holds it",
  );
  t.equal(await settled(second), false, "and keeps waiting while the first holds it");
  await first.release();
  const held = await second;
  const secondLine = await readFile(file, "utf8");
  t.match(secondLine, LINE, "the second holds it now");
  t.not(secondLine, firstLine, "under its own token");
  await held.release();
  t.same(await readdir(path.dirname(file)), [], "nothing left: no lock, no draft, no guard");
});

t.test("a live holder of another process is waited for until the time is up, never taken over", async (t) => {
  const file = await tempLock(t);
  const other = formatHolder({ pid: process.ppid, host, token: "theirs" });
  await writeFile(file, other);
  const error = await acquireFileLock(file, { waitMs: 300, pollMs: 20 }).catch((e: unknown) => e);
  t.type(error, FileLockTimeoutError);
  t.match((error as Error).message, `held by process ${process.ppid} on ${host}`);
  t.match((error as Error).message, file, "naming the file to remove");
  t.equal(await readFile(file, "utf8"), other, "left as it was");

  // The format before this one, a bare pid, is this host's: its holder may still be building.
  for (const older of [String(process.ppid), `${process.ppid}\n`]) {
    await writeFile(file, older);
    let waitedFor: LockHolder | undefined;
    const old = await acquireFileLock(file, {
      waitMs: 300,
      pollMs: 20,
      onWait: (holder) => (waitedFor = holder),
    }).catch((e: unknown) => e);
    t.type(old, FileLockTimeoutError, `${JSON.stringify(older)}: an older lock of a live process is waited for`);
    t.match((old as Error).message, `held by process ${process.ppid} on ${host}`);
    t.same(waitedFor, { pid: process.ppid, host, token: "" }, "read as this host's");
    t.equal(await readFile(file, "utf8"), older, "left as it was");
  }

  // Another machine's process (a shared folder) cannot be seen to be gone: waited for too.
  await writeFile(file, formatHolder({ pid: deadPid(), host: `not-${host}`, token: "remote" }));
  t.type(await acquireFileLock(file, { waitMs: 200, pollMs: 20 }).catch((e: unknown) => e), FileLockTimeoutError);
});

t.test(
  "stale locks are taken over: a process gone, an empty or unreadable file, this pid's from an attempt that is over",
  async (t) => {
    const file = await tempLock(t);
    const stale = {
      "its process gone": formatHolder({ pid: deadPid(), host, token: "crashed" }),
      "an empty file": "",
      "an unreadable file": "not a lock\n",
      "an older lock (a bare pid), its process gone": String(deadPid()),
      "an older lock naming this pid (an earlier process's)": String(process.pid),
      "this pid, a token this process does not hold": formatHolder({
        pid: process.pid,
        host,
        token: "earlier-attempt",
      }),
    };
    for (const [what, content] of Object.entries(stale)) {
      await writeFile(file, content);
      const lock = await acquireFileLock(file, { waitMs: LONG_WAIT_MS, pollMs: 10 });
      t.match(await readFile(file, "utf8"), new RegExp(`^${process.pid} ${host} `), `${what}: taken over`);
      t.not(await readFile(file, "utf8"), content);
      await lock.release();
    }
    t.same(await readdir(path.dirname(file)), [], "no guard left behind");
  },
);

t.test("a contender that saw the lock stale while another took it over leaves the new lock alone", async (t) => {
  const file = await tempLock(t);
  await writeFile(file, formatHolder({ pid: deadPid(), host, token: "crashed" }));
  let resume = () => {};
  let sawStale = () => {};
  const seen = new Promise<void>((resolve) => (sawStale = resolve));
  const paused = new Promise<void>((resolve) => (resume = resolve));
  const slow = acquireFileLock(file, { waitMs: LONG_WAIT_MS, pollMs: 5, beforeTakeover: () => (sawStale(), paused) });
  await seen;
  const fast = await acquireFileLock(file, { waitMs: LONG_WAIT_MS, pollMs: 5 });
  const fastLine = await readFile(file, "utf8");
  resume();
  t.equal(
    await settled(slow),
    false,
    "the slow one waits (removing what it saw by name would remove the fast one's lock)",
  );
  t.equal(await readFile(file, "utf8"), fastLine, "the fast one's lock stands");
  await fast.release();
  await (await slow).release();
  t.same(await readdir(path.dirname(file)), []);
});

t.test("many callers at once over a stale lock: one holds it at a time, every one in turn", async (t) => {
  const file = await tempLock(t);
  await writeFile(file, formatHolder({ pid: deadPid(), host, token: "crashed" }));
  let holding = 0;
  let most = 0;
  const contender = async () => {
    const lock: FileLock = await acquireFileLock(file, { waitMs: LONG_WAIT_MS, pollMs: 1 });
    holding++;
    most = Math.max(most, holding);
    await new Promise((resolve) => setTimeout(resolve, 5));
    holding--;
    await lock.release();
  };
  await Promise.all(Array.from({ length: 12 }, contender));
  t.equal(most, 1, "never two holders (removing a stale lock by name would remove a faster contender's new one)");
  t.same(await readdir(path.dirname(file)), []);
});

t.test("processes racing for a stale lock: one holds it at a time", async (t) => {
  const file = await tempLock(t);
  const log = `${file}.log`;
  await writeFile(file, formatHolder({ pid: deadPid(), host, token: "crashed" }));
  const results = await raceProcesses<{ result: string }>(Array.from({ length: 3 }, () => ["lock", file, log]));
  t.same(
    results.map((r) => r.result),
    ["held", "held", "held"],
  );
  const lines = (await readFile(log, "utf8")).trim().split("\n");
  t.equal(lines.length, 6);
  for (let i = 0; i < lines.length; i += 2) {
    t.match(lines[i], /^in \d+$/);
    t.equal(lines[i + 1], lines[i]!.replace("in", "out"), `${lines[i]}: let go before the next one holds it`);
  }
});

t.test(
  "the deadline holds on every pass: a dangling symlink at the lock's name ends in the timeout, not a spin",
  async (t) => {
    const file = await tempLock(t);
    // link(2) finds the name taken, open(2) finds nothing there: neither held nor free.
    await symlink(path.join(path.dirname(file), "gone"), file);
    const spinning = new Promise((resolve) => setTimeout(() => resolve("still trying after 30 s"), 30_000).unref());
    const error = await Promise.race([
      acquireFileLock(file, { waitMs: 200, pollMs: 10 }).catch((e: unknown) => e),
      spinning,
    ]);
    t.type(error, FileLockTimeoutError);
    t.match((error as Error).message, `held by another process; if that process is gone, remove the file`);
  },
);
