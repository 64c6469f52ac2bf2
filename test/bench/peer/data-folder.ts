import { access, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { runCpb } from "./cpb-command.js";

export interface Generation {
  companies: number;
  programs: number;
  losses: number;
  seed: string;
  asOf: string;
}

const FILES = ["coverages.csv", "lines_of_business.csv", "companies.csv", "programs.csv", "losses.csv"];
// Written last, so a folder whose generation was cut short is never taken for a whole one.
const MARKER = "bench-generation.json";

/**
 * The CSV folder to import. A folder the caller named is used as it is (it must hold
 * the files); the bench's own folder is generated unless a complete generation of the
 * same parameters is there already (generation is deterministic, so it can be kept).
 */
export async function prepareDataFolder(dir: string, generation: Generation, callerOwned: boolean): Promise<void> {
  if (callerOwned) {
    const missing = (await Promise.all(FILES.map(async (f) => ((await exists(path.join(dir, f))) ? null : f)))).filter(
      Boolean,
    );
    if (missing.length) throw new Error(`${dir} lacks ${missing.join(", ")}`);
    return;
  }
  if (await sameGeneration(dir, generation)) {
    console.log(`data: reusing ${dir}`);
    return;
  }
  await rm(dir, { recursive: true, force: true });
  const started = performance.now();
  await runCpb([
    "generate",
    dir,
    "--companies",
    String(generation.companies),
    "--programs",
    String(generation.programs),
    "--losses",
    String(generation.losses),
    "--seed",
    generation.seed,
    "--as-of",
    generation.asOf,
  ]);
  await writeFile(path.join(dir, MARKER), `${JSON.stringify(generation)}\n`);
  console.log(`data: generated ${dir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function sameGeneration(dir: string, generation: Generation): Promise<boolean> {
  try {
    const stored = JSON.parse(await readFile(path.join(dir, MARKER), "utf8")) as Partial<Generation>;
    return (Object.keys(generation) as (keyof Generation)[]).every((key) => stored[key] === generation[key]);
  } catch {
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
