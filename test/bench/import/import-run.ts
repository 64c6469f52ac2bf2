import { spawn } from "node:child_process";
import { CPB_BIN } from "../peer/cpb-command.js";
import { startRssSampler } from "../peer/process-rss.js";
import { machineBusySeconds } from "./machine-cpu.js";

export interface ImportRun {
  ms: number;
  /** The largest resident set of the import's process. */
  peakRssBytes: number;
  /** CPU seconds the machine spent meanwhile (machine-cpu.ts). */
  cpuSeconds: number;
  /** cpb import's own summary: a line per file. */
  summary: string[];
}

/** `cpb import ARGS` as an operator runs it, timed from spawn to exit, its memory sampled. */
export async function runImport(databaseUrl: string, args: readonly string[]): Promise<ImportRun> {
  const busyBefore = await machineBusySeconds();
  const started = performance.now();
  const child = spawn(process.execPath, [CPB_BIN, "import", ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const rss = startRssSampler(child.pid!, 50);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  const ms = performance.now() - started;
  const cpuSeconds = (await machineBusySeconds()) - busyBefore;
  rss.stop();
  if (code !== 0) throw new Error(`cpb import ${args.join(" ")} exited with ${code}:\n${output}`);
  return { ms, peakRssBytes: rss.peak(), cpuSeconds, summary: output.trim().split("\n") };
}
