import { execFileSync, spawn } from "node:child_process";
import path from "node:path";

/** The checkout's `bin/cpb.js`, run by this same node (what `npx --no cpb` runs, without npm around it). */
export const CPB_BIN = path.resolve(import.meta.dirname, "../../../bin/cpb.js");

// The benches measure cpb as production runs it: compiled (bin/compiled.js) from the
// sources as they are now, checked once per process before any cpb starts.
execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../../../bin/compiled.js"), "--if-stale"], {
  stdio: "inherit",
});

/** Runs `cpb ARGS` to completion with its output shown; rejects on a non-zero exit. */
export async function runCpb(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const child = spawn(process.execPath, [CPB_BIN, ...args], { env, stdio: ["ignore", "inherit", "inherit"] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`cpb ${args.join(" ")} exited with ${code}`);
}
