// Building the console when its bundle is missing or stale (issue 16): the hash of the
// sources decides, on a source tree of a temp folder with a stand-in builder; two
// processes racing build once; then one real Vite build of the real app.
import t from "tap";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import {
  consoleBuildState,
  consolePaths,
  ensureConsoleBuilt,
  hashConsoleSources,
  SOURCE_HASH_FILE,
  type ConsoleBuilder,
  type ConsolePaths,
} from "../../src/console/console-build.js";
import { formatHolder } from "../../src/console/file-lock.js";
import { raceProcesses } from "./helpers/fork-racers.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A checkout of its own: an app's sources and a lockfile. */
async function tempCheckout(t: Teardown): Promise<ConsolePaths> {
  const root = await mkdtemp(path.join(tmpdir(), "cpb-console-build-"));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const paths = consolePaths(root);
  await mkdir(path.join(paths.sourceDir, "src"), { recursive: true });
  await writeFile(paths.configFile, "export default {};\n");
  await writeFile(
    path.join(paths.sourceDir, "index.html"),
    "<!doctype html><script type=module src=/src/main.ts></script>\n",
  );
  await writeFile(path.join(paths.sourceDir, "src", "main.ts"), "console.log(1);\n");
  await writeFile(paths.lockfile, '{"lockfileVersion": 3}\n');
  return paths;
}

/** Writes an index.html, as a build would, and counts its builds. */
function standInBuilder(): { build: ConsoleBuilder; builds: () => number } {
  let count = 0;
  return {
    builds: () => count,
    build: async (_paths, outDir) => {
      count++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      await mkdir(outDir, { recursive: true });
      await writeFile(path.join(outDir, "index.html"), `build ${count}`);
    },
  };
}

t.test("a missing bundle is built, an unchanged one is not, a changed source rebuilds it", async (t) => {
  const paths = await tempCheckout(t);
  const { build, builds } = standInBuilder();
  t.same(await consoleBuildState(paths), { state: "missing", sourceHash: await hashConsoleSources(paths) });
  t.equal(await ensureConsoleBuilt(paths, { build }), "built");
  t.equal(builds(), 1);
  t.equal(
    (await readFile(path.join(paths.outDir, SOURCE_HASH_FILE), "utf8")).trim(),
    await hashConsoleSources(paths),
    "the sources' hash recorded in the bundle",
  );
  t.equal(await ensureConsoleBuilt(paths, { build }), "fresh");
  t.equal(builds(), 1, "unchanged sources: no build");

  const main = path.join(paths.sourceDir, "src", "main.ts");
  await writeFile(main, "console.log(2);\n");
  t.equal((await consoleBuildState(paths)).state, "stale", "an edited source");
  t.equal(await ensureConsoleBuilt(paths, { build }), "built");
  t.equal(builds(), 2);
  t.equal(await readFile(path.join(paths.outDir, "index.html"), "utf8"), "build 2", "the new bundle swapped in");
  t.notOk(
    existsSync(`${paths.outDir}.next`) || existsSync(`${paths.outDir}.previous`) || existsSync(`${paths.outDir}.lock`),
    "nothing left beside it",
  );

  await rename(main, path.join(paths.sourceDir, "src", "app.ts"));
  t.equal((await consoleBuildState(paths)).state, "stale", "a renamed source");
  await ensureConsoleBuilt(paths, { build });
  await writeFile(path.join(paths.sourceDir, "src", "new.css"), "body{}");
  t.equal((await consoleBuildState(paths)).state, "stale", "a new source");
  await ensureConsoleBuilt(paths, { build });
  await writeFile(paths.lockfile, '{"lockfileVersion": 3, "packages": {}}\n');
  t.equal((await consoleBuildState(paths)).state, "stale", "a changed lockfile (a new Vite or Preact)");
  await ensureConsoleBuilt(paths, { build });
  t.equal(builds(), 5);

  await mkdir(path.join(paths.sourceDir, "node_modules", ".vite"), { recursive: true });
  await writeFile(path.join(paths.sourceDir, "node_modules", ".vite", "cache.json"), "{}");
  t.equal((await consoleBuildState(paths)).state, "fresh", "a tool's cache is no source");
  await rm(path.join(paths.outDir, "index.html"));
  t.equal((await consoleBuildState(paths)).state, "missing", "a bundle without its index.html");
});

t.test("no app (no vite.config.ts): nothing to build", async (t) => {
  const paths = await tempCheckout(t);
  await rm(paths.configFile);
  const { build, builds } = standInBuilder();
  t.equal(await ensureConsoleBuilt(paths, { build }), "no-sources");
  t.equal(builds(), 0);
});

t.test(
  "two processes at once build once; a lock left by a dead process is taken over; a failed build leaves the old bundle",
  async (t) => {
    const paths = await tempCheckout(t);
    const { build, builds } = standInBuilder();
    const results = await Promise.all([ensureConsoleBuilt(paths, { build }), ensureConsoleBuilt(paths, { build })]);
    t.same(results.sort(), ["built", "fresh"]);
    t.equal(builds(), 1);

    await writeFile(path.join(paths.sourceDir, "src", "main.ts"), "console.log(3);\n");
    await writeFile(`${paths.outDir}.lock`, formatHolder({ pid: 999_999_999, host: hostname(), token: "crashed" })); // no such process
    t.equal(await ensureConsoleBuilt(paths, { build, lockWaitMs: 60_000 }), "built");

    await writeFile(path.join(paths.sourceDir, "src", "main.ts"), "console.log(4);\n");
    const failing: ConsoleBuilder = async () => {
      throw new Error("a syntax error");
    };
    await t.rejects(ensureConsoleBuilt(paths, { build: failing }), /a syntax error/);
    t.equal(await readFile(path.join(paths.outDir, "index.html"), "utf8"), "build 2", "the last good bundle stays");
    t.equal((await consoleBuildState(paths)).state, "stale", "and is still known to be stale");
    t.notOk(existsSync(`${paths.outDir}.lock`), "the lock released");
  },
);

t.test("waiting for another's build: the progress line names the lock's holder", async (t) => {
  const paths = await tempCheckout(t);
  const { build, builds } = standInBuilder();
  await mkdir(path.dirname(paths.outDir), { recursive: true });
  const lockFile = `${paths.outDir}.lock`;
  // A live process of this host (the test runner) holds it: waited for, never taken over.
  await writeFile(lockFile, formatHolder({ pid: process.ppid, host: hostname(), token: "theirs" }));
  const lines: string[] = [];
  await t.rejects(ensureConsoleBuilt(paths, { build, lockWaitMs: 200, report: (line) => lines.push(line) }), {
    name: "FileLockTimeoutError",
  });
  t.same(lines, [`process ${process.ppid} on ${hostname()} is building the console (${lockFile}): waiting for it…`]);
  t.equal(builds(), 0);
});

t.test(
  "two processes starting at once (npm start and npm test): one builds, the other waits and finds the bundle fresh",
  async (t) => {
    const paths = await tempCheckout(t);
    const log = path.join(path.dirname(paths.outDir), "builds.log");
    const root = path.resolve(paths.sourceDir, "..", "..", "..");
    const [a, b] = await raceProcesses<{ result: string; index: string }>([
      ["build", root, log],
      ["build", root, log],
    ]);
    t.same([a!.result, b!.result].sort(), ["built", "fresh"]);
    const builds = (await readFile(log, "utf8")).trim().split("\n");
    t.equal(builds.length, 1, "one build");
    const builder = builds[0]!.replace("build ", "");
    t.equal(a!.index, `built by ${builder}`, "the first sees the one bundle");
    t.equal(b!.index, `built by ${builder}`, "and so does the second");
    t.equal((await consoleBuildState(paths)).state, "fresh");
    t.notOk(existsSync(`${paths.outDir}.lock`), "the lock released");
  },
);

t.test("one real build of the app with Vite: hashed assets under /console/assets/, no inline script", async (t) => {
  const outDir = await mkdtemp(path.join(tmpdir(), "cpb-console-real-"));
  t.teardown(() => rm(outDir, { recursive: true, force: true }));
  const paths = { ...consolePaths(), outDir: path.join(outDir, "console") };
  t.equal(await ensureConsoleBuilt(paths), "built");
  const html = await readFile(path.join(paths.outDir, "index.html"), "utf8");
  const assets = await readdir(path.join(paths.outDir, "assets"));
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
  t.ok(scripts.length > 0, "the app's script");
  for (const tag of scripts)
    t.match(tag, /src="\/console\/assets\/[\w-]+-[\w-]{8,}\.js"/, `${tag}: a hashed file under /console/assets/`);
  t.notMatch(html, /<script\b[^>]*>[^<\s]/, "no inline script (the policy has no 'unsafe-inline')");
  t.notMatch(html, /<style\b/, "no inline style");
  for (const name of assets) t.match(name, /-[\w-]{8,}\.\w+$/, `${name}: a hashed name`);
  t.equal(await ensureConsoleBuilt(paths), "fresh", "built once");
});
