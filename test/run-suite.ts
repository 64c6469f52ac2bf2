/**
 * `npm test`: runs tap against one PostgreSQL for the whole suite. With DATABASE_URL
 * set (CI's second pass) that server is used; otherwise one embedded server is
 * started for the run, so each test file does not start its own. Arguments go to tap.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { consolePaths, ensureConsoleBuilt } from "../src/console/console-build.js";
import { startEmbeddedPostgres } from "../src/dev/embedded-postgres.js";

// The console's tests serve its bundle: built here, once, when missing or out of date.
await ensureConsoleBuilt(consolePaths(), { report: (line) => console.error(line) });
// The tests that run `cpb` run it as production does, compiled (bin/compiled.js).
execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../bin/compiled.js")], { stdio: "inherit" });

let stop = async () => {};
if (!process.env.DATABASE_URL) {
  const parent = await mkdtemp(path.join(tmpdir(), "cpb-test-"));
  await chmod(parent, 0o755); // the OS user postgres must traverse it
  const server = await startEmbeddedPostgres(path.join(parent, "pgdata"));
  process.env.DATABASE_URL = server.url;
  stop = async () => {
    await server.stop();
    await rm(parent, { recursive: true, force: true });
  };
}

const tap = spawn("npx", ["--no", "tap", ...process.argv.slice(2)], { stdio: "inherit" });
const status = await new Promise<number>((resolve) => tap.on("close", (code) => resolve(code ?? 1)));
await stop();
process.exit(status);
