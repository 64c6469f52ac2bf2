import { readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = 100;

/** User plus system CPU of every thread of a process, in seconds (/proc/PID/stat, 10 ms ticks). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
