/**
 * A child process of the lock tests (forked with tsx): says "ready", waits for "go" so
 * that every racer starts at once, then either takes the lock (`lock FILE LOG`: notes
 * when it holds it and when it lets go) or builds the console of a temp checkout with a
 * stand-in builder (`build ROOT LOG`: notes each build); sends its result and exits.
 */
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { consolePaths, ensureConsoleBuilt } from "../../../src/console/console-build.js";
import { acquireFileLock } from "../../../src/console/file-lock.js";

const [mode, target, log] = process.argv.slice(2) as [string, string, string];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

await new Promise<void>((resolve) => {
  process.once("message", () => resolve());
  process.send!("ready");
});

if (mode === "lock") {
  const lock = await acquireFileLock(target, { waitMs: 30_000, pollMs: 5 });
  await appendFile(log, `in ${process.pid}\n`);
  await sleep(100);
  await appendFile(log, `out ${process.pid}\n`);
  await lock.release();
  process.send!({ result: "held" });
} else {
  const paths = consolePaths(target);
  const result = await ensureConsoleBuilt(paths, {
    lockWaitMs: 30_000,
    build: async (_paths, outDir) => {
      await appendFile(log, `build ${process.pid}\n`);
      await sleep(300);
      await mkdir(outDir, { recursive: true });
      await writeFile(path.join(outDir, "index.html"), `built by ${process.pid}`);
    },
  });
  process.send!({ result, index: await readFile(path.join(paths.outDir, "index.html"), "utf8") });
}
process.disconnect();
