import { readdir, readFile } from "node:fs/promises";

export interface RssSample {
  /** performance.now() of the sample. */
  at: number;
  bytes: number;
}

export interface RssSampler {
  /** Takes one sample now (besides the timer's). */
  sample(): Promise<void>;
  /** The largest resident set seen, optionally only among samples taken in [from, to]. */
  peak(from?: number, to?: number): number;
  samples(): readonly RssSample[];
  stop(): void;
}

/**
 * Samples the resident set of a process and all its descendants (VmRSS of
 * /proc/<pid>/status, summed over the tree found through /proc/<pid>/task/<tid>/children)
 * every `intervalMs`. The root is the server's own node process, so no npm or shell
 * wrapper is counted (CONVENTIONS.md, Performance measurement).
 */
export function startRssSampler(rootPid: number, intervalMs = 100): RssSampler {
  const taken: RssSample[] = [];
  let busy = false;
  const sample = async () => {
    const at = performance.now();
    const bytes = await treeRss(rootPid);
    if (bytes > 0) taken.push({ at, bytes });
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void sample().finally(() => (busy = false));
  }, intervalMs);
  timer.unref();
  return {
    sample,
    peak(from = -Infinity, to = Infinity) {
      return taken.reduce((max, s) => (s.at >= from && s.at <= to && s.bytes > max ? s.bytes : max), 0);
    },
    samples: () => taken,
    stop: () => clearInterval(timer),
  };
}

async function treeRss(rootPid: number): Promise<number> {
  let total = 0;
  const pending = [rootPid];
  const seen = new Set<number>();
  while (pending.length) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += await vmRssBytes(pid);
    pending.push(...(await childrenOf(pid)));
  }
  return total;
}

async function vmRssBytes(pid: number): Promise<number> {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(await readFile(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // gone between listing and reading
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    const lists = await Promise.all(
      tasks.map((tid) => readFile(`/proc/${pid}/task/${tid}/children`, "utf8").catch(() => "")),
    );
    return lists.flatMap((list) => list.split(" ").filter(Boolean).map(Number));
  } catch {
    return [];
  }
}
