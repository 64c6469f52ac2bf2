import { readFile } from "node:fs/promises";

/**
 * CPU seconds the whole machine spent busy (user, nice, system, irq, softirq of
 * /proc/stat's first line), so an import's work counts wherever it runs: in cpb, in
 * its PostgreSQL backend, in PostgreSQL's parallel workers and background writers.
 * NaN where /proc/stat is not there.
 */
export async function machineBusySeconds(): Promise<number> {
  try {
    const line = (await readFile("/proc/stat", "utf8")).split("\n")[0]!;
    const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user! + nice! + system! + irq! + softirq!) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}
