import { Command, InvalidArgumentError } from "commander";
import path from "node:path";
import { positiveNumber } from "../peer/options.js";

const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432";

export interface ImportBenchOptions {
  scale: number;
  smoke: boolean;
  /** Floor and import, measured this many times each, alternating. */
  rounds: number;
  /** The bench's own database (a cpb_bench_* name: it is dropped and recreated). */
  databaseUrl: string;
  dataDir: string;
  dataDirGiven: boolean;
  jsonFile: string;
  /** Seconds of reading before the --replace import starts: the readers' baseline. */
  baselineSeconds: number;
  readers: number;
}

/** A count that must be at least 1 (peer/options.ts's wholeNumber takes 0). */
export function countAboveZero(text: string): number {
  if (!/^[1-9]\d*$/.test(text)) throw new InvalidArgumentError(`"${text}" is not a whole number above 0`);
  return Number(text);
}

export function readImportOptions(argv: readonly string[], cwd = process.cwd()): ImportBenchOptions {
  const program = new Command("bench:import")
    .description("cpb import against PostgreSQL's own raw load (psql \\copy and primary keys), in one run")
    .option("--scale <factor>", "data size as a fraction of Advisen scale (default 1; smoke 0.01)", positiveNumber)
    .option("--smoke", "a small run for CI: scale 0.01, one round, 1 s of baseline reading")
    .option("--rounds <n>", "floor and import measured n times each, alternating (default 1)", countAboveZero)
    .option("--readers <n>", "concurrent API readers during the --replace import", countAboveZero, 4)
    .option("--baseline <seconds>", "reading before the --replace import starts (default 5; smoke 1)", positiveNumber)
    .option("--server-url <url>", "the PostgreSQL server; the bench creates its own database there", DEFAULT_SERVER_URL)
    .option("--data <dir>", "a generated folder to import (default .cpb/bench/data-<scale>/, generated when missing)")
    .option("--json <file>", "where to write the results (default .cpb/bench/import-<scale>.json)")
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .parse(argv, { from: "user" });
  const raw = program.opts<{
    scale?: number;
    smoke?: boolean;
    rounds?: number;
    readers: number;
    baseline?: number;
    serverUrl: string;
    data?: string;
    json?: string;
  }>();
  const smoke = raw.smoke ?? false;
  const scale = raw.scale ?? (smoke ? 0.01 : 1);
  const benchDir = path.join(cwd, ".cpb", "bench");
  const name = smoke ? `cpb_bench_import_smoke_${process.pid}` : "cpb_bench_import";
  return {
    scale,
    smoke,
    rounds: raw.rounds ?? 1,
    databaseUrl: `${raw.serverUrl.replace(/\/+$/, "")}/${name}`,
    dataDir: raw.data ? path.resolve(cwd, raw.data) : path.join(benchDir, `data-${scale}`),
    dataDirGiven: raw.data !== undefined,
    jsonFile: raw.json ? path.resolve(cwd, raw.json) : path.join(benchDir, `import-${scale}.json`),
    baselineSeconds: raw.baseline ?? (smoke ? 1 : 5),
    readers: raw.readers,
  };
}
