// The service compiled to JavaScript: dist/server mirrors src, gen and migrations, each
// TypeScript file transpiled as it stands by esbuild (no bundle, no type check: `npm
// run typecheck` does that). Production runs it: tsx's loader costs every call some
// work (its `__name` wrapping of functions, for one), and an install should not
// compile at run time.
import { build } from "esbuild";
import console from "node:console";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT_DIR = path.join(ROOT, "dist", "server");
const STAMP = path.join(OUT_DIR, "sources.json");
/** The browser console is built by Vite (src/console/web), not here. */
const SKIPPED = path.join(ROOT, "src", "console", "web");

/** The compiled entry point of the `cpb` command. */
export const COMPILED_MAIN = path.join(OUT_DIR, "src", "cli", "main.js");

/** Every source file the server runs, and a fingerprint of them all: their number and the newest change. */
function sources() {
  const files = [];
  let newest = 0;
  for (const dir of ["src", "gen", "migrations"]) {
    for (const entry of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath ?? entry.path, entry.name);
      if (!entry.isFile() || !file.endsWith(".ts") || file.endsWith(".d.ts") || file.startsWith(SKIPPED)) continue;
      files.push(file);
      newest = Math.max(newest, statSync(file).mtimeMs);
    }
  }
  return { files, fingerprint: `${files.length} files, newest ${newest}` };
}

/** Whether dist/server holds the compilation of the sources as they are now. */
export function compiledIsCurrent() {
  try {
    return JSON.parse(readFileSync(STAMP, "utf8")).fingerprint === sources().fingerprint;
  } catch {
    return false;
  }
}

/**
 * Compiles every source file into dist/server, anew: into a folder of its own first, then
 * renamed into place, so a cpb starting meanwhile finds the old compilation or the new
 * one, never half of one (and of two compilations at once, either may win).
 */
export async function compile() {
  const { files, fingerprint } = sources();
  const building = `${OUT_DIR}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  await build({
    entryPoints: files,
    outdir: building,
    outbase: ROOT,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  writeFileSync(path.join(building, path.basename(STAMP)), JSON.stringify({ fingerprint }));
  rmSync(OUT_DIR, { recursive: true, force: true });
  try {
    renameSync(building, OUT_DIR);
  } catch (error) {
    if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    rmSync(building, { recursive: true, force: true }); // another compilation got there first
  }
  return files.length;
}

// `node bin/compiled.js [--if-stale]`: compiles (when the compilation is not current).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--if-stale") && compiledIsCurrent()) process.exit(0);
  const started = performance.now();
  const count = await compile();
  console.error(`compiled ${count} files into dist/server in ${Math.round(performance.now() - started)} ms`);
}
