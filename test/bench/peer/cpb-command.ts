import { spawn } from "node:child_process";
import path from "node:path";

/** The checkout's `bin/cpb.js`, run by this same node (what `npx --no cpb` runs, without npm around it). */
export const CPB_BIN = path.resolve(import.meta.dirname, "../../../bin/cpb.js");

/** Runs `cpb ARGS` to completion with its output shown; rejects on a non-zero exit. */
export async function runCpb(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const child = spawn(process.execPath, [CPB_BIN, ...args], { env, stdio: ["ignore", "inherit", "inherit"] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`cpb ${args.join(" ")} exited with ${code}`);
}
