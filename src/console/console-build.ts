import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT } from "../project-root.js";
import { acquireFileLock, describeHolder } from "./file-lock.js";

/** Where the console's sources are and where its bundle goes. */
export interface ConsolePaths {
  /** The browser app: its own index.html, vite.config.ts and tsconfig.json. */
  sourceDir: string;
  /** Vite's configuration, in sourceDir. */
  configFile: string;
  /** The lockfile: a new Vite, Preact or ECharts changes the bundle as much as a source does. */
  lockfile: string;
  /** The built bundle, served under /console/. */
  outDir: string;
}

export function consolePaths(root = PROJECT_ROOT): ConsolePaths {
  const sourceDir = path.join(root, "src", "console", "web");
  return {
    sourceDir,
    configFile: path.join(sourceDir, "vite.config.ts"),
    lockfile: path.join(root, "package-lock.json"),
    outDir: path.join(root, "dist", "console"),
  };
}

/** The bundle's record of the sources it was built from; a dotfile, never served. */
export const SOURCE_HASH_FILE = ".source-hash";

/** Folders of the source tree that are not sources. */
const SKIPPED = new Set(["node_modules", "dist", ".vite"]);

/**
 * SHA-256 over every file of the source folder (sorted relative paths, each with its
 * bytes) and the lockfile; undefined when the folder holds no app (no vite.config.ts).
 * A renamed or deleted file changes it as an edited one does.
 */
export async function hashConsoleSources(paths: ConsolePaths): Promise<string | undefined> {
  if (!existsSync(paths.configFile)) return undefined;
  const hash = createHash("sha256");
  for (const file of await listFiles(paths.sourceDir)) {
    hash.update(`${path.relative(paths.sourceDir, file).split(path.sep).join("/")}\0`);
    hash.update(await readFile(file));
    hash.update("\0");
  }
  hash.update("lockfile\0");
  hash.update(await readFile(paths.lockfile).catch(() => Buffer.alloc(0)));
  return hash.digest("hex");
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) files.push(...(await listFiles(full)));
    } else if (entry.isFile()) {
      files.push(full);
    }
  }
  return files;
}

export type ConsoleBuildState = { state: "no-sources" } | { state: "missing" | "stale" | "fresh"; sourceHash: string };

/** Whether the bundle in outDir was built from the sources as they are now. */
export async function consoleBuildState(paths: ConsolePaths): Promise<ConsoleBuildState> {
  const sourceHash = await hashConsoleSources(paths);
  if (sourceHash === undefined) return { state: "no-sources" };
  const recorded = await readFile(path.join(paths.outDir, SOURCE_HASH_FILE), "utf8").then(
    (text) => text.trim(),
    () => undefined,
  );
  if (recorded === undefined || !existsSync(path.join(paths.outDir, "index.html")))
    return { state: "missing", sourceHash };
  return { state: recorded === sourceHash ? "fresh" : "stale", sourceHash };
}

/** Builds the bundle into `outDir`; Vite by default, a stand-in in tests. */
export type ConsoleBuilder = (paths: ConsolePaths, outDir: string) => Promise<void>;

/**
 * Vite's JS API with the app's own configuration. Root, base and output are set here
 * too (inline settings win over the file's): the server serves `outDir` under
 * /console/, whatever the working folder. Vite is loaded only when a build is due, so
 * `cpb serve` never needs it.
 */
export const viteBuild: ConsoleBuilder = async (paths, outDir) => {
  const { build } = await import("vite");
  await build({
    configFile: paths.configFile,
    root: paths.sourceDir,
    base: "/console/",
    logLevel: "warn",
    build: { outDir, emptyOutDir: true },
  });
};

export interface EnsureOptions {
  build?: ConsoleBuilder;
  /** Progress lines ("building the console…"). */
  report?: (line: string) => void;
  /** How long to wait for another process's build of the same bundle. */
  lockWaitMs?: number;
}

export type EnsureResult = "no-sources" | "fresh" | "built";

/**
 * Builds the console when its bundle is missing or was built from other sources, and
 * records the sources' hash in it. `cpb dev`, `npm test` and `npm run build:console`
 * call it. A build goes to a folder beside outDir and is swapped in whole, under a lock
 * file (file-lock.ts), so that two processes starting at once build once (the other
 * waits, then finds the bundle fresh) and a server never reads a half-written bundle.
 */
export async function ensureConsoleBuilt(
  paths: ConsolePaths = consolePaths(),
  options: EnsureOptions = {},
): Promise<EnsureResult> {
  const first = await consoleBuildState(paths);
  if (first.state === "no-sources") return "no-sources";
  if (first.state === "fresh") return "fresh";
  await mkdir(path.dirname(paths.outDir), { recursive: true });
  const lockFile = `${paths.outDir}.lock`;
  const lock = await acquireFileLock(lockFile, {
    waitMs: options.lockWaitMs ?? 300_000,
    onWait: (holder) =>
      options.report?.(`${describeHolder(holder)} is building the console (${lockFile}): waiting for it…`),
  });
  try {
    // Another process may have built it while this one waited for the lock.
    const state = await consoleBuildState(paths);
    if (state.state === "no-sources") return "no-sources";
    if (state.state === "fresh") return "fresh";
    options.report?.(
      state.state === "missing" ? "building the console…" : "the console's sources changed: rebuilding it…",
    );
    const next = `${paths.outDir}.next`;
    const previous = `${paths.outDir}.previous`;
    await rm(next, { recursive: true, force: true });
    await (options.build ?? viteBuild)(paths, next);
    await writeFile(path.join(next, SOURCE_HASH_FILE), `${state.sourceHash}\n`);
    await rm(previous, { recursive: true, force: true });
    if (existsSync(paths.outDir)) await rename(paths.outDir, previous);
    await rename(next, paths.outDir);
    await rm(previous, { recursive: true, force: true });
    return "built";
  } finally {
    await lock.release();
  }
}
