import { Command, InvalidArgumentError, Option } from "commander";
import path from "node:path";

/** The fixed definitions of CONVENTIONS.md, Performance measurement. */
export const ADVISEN = { companies: 650_000, programs: 4_000_000, losses: 300_000 } as const;
export const SEED = "7";
export const AS_OF = "2026-11-01";
const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432";

export type Engine = "index" | "sql";

export interface BenchOptions {
  scale: number;
  smoke: boolean;
  /** Measured cold requests per class × operation. */
  requests: number;
  /** Unmeasured cold requests per class × operation before the measured ones. */
  warmup: number;
  /** Seconds of each warm run. */
  durationSeconds: number;
  connections: number;
  engine: Engine;
  reuse: boolean;
  /** The database to benchmark on; `cpb_bench_*` ones may be dropped and recreated. */
  databaseUrl: string;
  /** The generated CSV folder, and whether the caller named it (then it is never written). */
  dataDir: string;
  dataDirGiven: boolean;
  jsonFile: string;
  readyTimeoutSeconds: number;
  /** Drop the database at the end (smoke runs, so CI leaves nothing behind). */
  dropAtEnd: boolean;
  /** Only the operations whose name holds this text (any case), while working on one. */
  only: string | undefined;
}

/** Row counts of a generation at this scale. */
export function countsAt(scale: number): { companies: number; programs: number; losses: number } {
  const at = (n: number) => Math.max(1, Math.round(n * scale));
  return { companies: at(ADVISEN.companies), programs: at(ADVISEN.programs), losses: at(ADVISEN.losses) };
}

/** `0.1` → `0_1`: part of a database name. */
function scaleLabel(scale: number): string {
  return String(scale).replace(/[^0-9]/g, "_");
}

/** The database `npm run bench` imports at a scale, on the default server. */
export function benchDatabaseUrl(scale: number): string {
  return `${DEFAULT_SERVER_URL}/cpb_bench_${scaleLabel(scale)}`;
}

export function positiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError(`"${text}" is not a positive number`);
  return value;
}

/** A count given on the command line: a whole number above 0. */
export function countAboveZero(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${text}" is not a whole number above 0`);
  return n;
}

function wholeNumber(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new InvalidArgumentError(`"${text}" is not a whole number`);
  return value;
}

interface RawOptions {
  scale?: number;
  smoke?: boolean;
  requests?: number;
  warmup?: number;
  duration?: number;
  connections: number;
  engine: Engine;
  reuse?: boolean;
  databaseUrl?: string;
  data?: string;
  json?: string;
  readyTimeout: number;
  only?: string;
}

/** Reads the command line; `--smoke` changes the defaults of the options it is not given. */
export function readOptions(argv: readonly string[], cwd = process.cwd()): BenchOptions {
  const program = new Command("bench")
    .description("the peer-query benchmark of CONVENTIONS.md (Performance measurement)")
    .option("--scale <factor>", "data size as a fraction of Advisen scale (default 0.1; smoke 0.002)", positiveNumber)
    .option("--smoke", "a tiny run for CI: scale 0.002, 20 requests, 0.5 s warm runs; exits 1 on any failure")
    .option("--requests <n>", "measured cold requests per class and operation (default 200; smoke 20)", wholeNumber)
    .option("--warmup <n>", "unmeasured cold requests first (default 20; smoke 3)", wholeNumber)
    .option("--duration <seconds>", "length of each warm run (default 10; smoke 0.5)", positiveNumber)
    .option("--connections <n>", "warm concurrency", wholeNumber, 32)
    .addOption(
      new Option("--engine <engine>", "PEER_INDEX=on (index) or off (sql)").choices(["index", "sql"]).default("index"),
    )
    .option("--reuse", "keep the database when it already holds a complete import of this scale")
    .option("--database-url <url>", "the database (default postgres://postgres@127.0.0.1:5432/cpb_bench_<scale>)")
    .option("--data <dir>", "a generated folder to import (default .cpb/bench/data-<scale>/, generated when missing)")
    .option(
      "--json <file>",
      "where to write the results (default .cpb/bench/results-<scale>.json, -sql.json for --engine sql)",
    )
    .option(
      "--ready-timeout <seconds>",
      "how long the server may take to get ready, and an index to rebuild",
      positiveNumber,
      300,
    )
    .option(
      "--only <text>",
      'only the operations whose name holds the text, e.g. "limit adequacy" (results in -only.json)',
    )
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .parse(argv, { from: "user" });
  const raw = program.opts<RawOptions>();
  const smoke = raw.smoke ?? false;
  const scale = raw.scale ?? (smoke ? 0.002 : 0.1);
  const benchDir = path.join(cwd, ".cpb", "bench");
  return {
    scale,
    smoke,
    requests: raw.requests ?? (smoke ? 20 : 200),
    warmup: raw.warmup ?? (smoke ? 3 : 20),
    durationSeconds: raw.duration ?? (smoke ? 0.5 : 10),
    connections: raw.connections,
    engine: raw.engine,
    reuse: raw.reuse ?? false,
    // A smoke run gets a database of its own, so two of them on one machine do not collide.
    databaseUrl:
      raw.databaseUrl ?? (smoke ? `${DEFAULT_SERVER_URL}/cpb_bench_smoke_${process.pid}` : benchDatabaseUrl(scale)),
    dataDir: raw.data ? path.resolve(cwd, raw.data) : path.join(benchDir, `data-${scale}`),
    dataDirGiven: raw.data !== undefined,
    jsonFile: raw.json
      ? path.resolve(cwd, raw.json)
      : path.join(benchDir, `results-${scale}${raw.engine === "sql" ? "-sql" : ""}${raw.only ? "-only" : ""}.json`),
    readyTimeoutSeconds: raw.readyTimeout,
    dropAtEnd: smoke && raw.databaseUrl === undefined,
    only: raw.only?.toLowerCase(),
  };
}
