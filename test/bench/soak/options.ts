import { Command, InvalidArgumentError } from "commander";
import path from "node:path";
import { countAboveZero } from "../import/options.js";
import { positiveNumber } from "../peer/options.js";

const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432";

export interface SoakOptions {
  smoke: boolean;
  minutes: number;
  concurrency: number;
  scale: number;
  /** The folder imported first and re-imported (`--replace`) on schedule. */
  dataDir: string;
  dataDirGiven: boolean;
  importEveryMinutes: number;
  warmupMinutes: number;
  reportEverySeconds: number;
  /** The soak's own database (cpb_bench_*: dropped and recreated at the start). */
  databaseUrl: string;
  jsonFile: string;
  readyTimeoutSeconds: number;
  /** Drop the database at the end (smoke runs leave nothing behind). */
  dropAtEnd: boolean;
  /** More environment for `cpb serve` (`--server-env ANALYTICS_MAX_WAIT_MS=3000`), to try a setting under soak. */
  serverEnv: Record<string, string>;
}

interface RawOptions {
  smoke?: boolean;
  minutes?: number;
  concurrency: number;
  scale?: number;
  data?: string;
  importEvery?: number;
  warmup?: number;
  reportEvery?: number;
  serverUrl: string;
  json?: string;
  readyTimeout: number;
  serverEnv: Record<string, string>;
}

/** `NAME=value`, repeatable, into one environment. */
function environmentEntry(text: string, previous: Record<string, string>): Record<string, string> {
  const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(text);
  if (!match) throw new InvalidArgumentError(`"${text}" is not NAME=value`);
  return { ...previous, [match[1]!]: match[2]! };
}

/** Reads the command line; `--smoke` changes the defaults of the options it is not given. */
export function readSoakOptions(argv: readonly string[], cwd = process.cwd()): SoakOptions {
  const program = new Command("soak")
    .description(
      "every REST operation at a steady concurrency for many minutes, with imports on a schedule; fails on any error or on RSS growth",
    )
    .option("--minutes <n>", "how long the load runs (default 30; smoke 1)", positiveNumber)
    .option("--concurrency <n>", "clients, each sending without pause on its own connection", countAboveZero, 32)
    .option("--scale <factor>", "data size as a fraction of Advisen scale (default 1; smoke 0.01)", positiveNumber)
    .option("--data <dir>", "a generated folder to import (default .cpb/bench/data-<scale>/, generated when missing)")
    .option(
      "--import-every <minutes>",
      "cpb import --replace of the folder this often (default 5; smoke 0.3)",
      positiveNumber,
    )
    .option(
      "--warmup <minutes>",
      "load before RSS is judged, and at least until the first import's rebuild settles (default 3; smoke 0.15)",
      positiveNumber,
    )
    .option("--report-every <seconds>", "length of a report period (default 60; smoke 10)", positiveNumber)
    .option("--server-url <url>", "the PostgreSQL server; the soak creates its own database there", DEFAULT_SERVER_URL)
    .option("--json <file>", "where to write the results (default .cpb/bench/soak-<scale>.json)")
    .option("--server-env <NAME=value>", "more environment for cpb serve; repeatable", environmentEntry, {})
    .option(
      "--ready-timeout <seconds>",
      "how long the server may take to get ready, and an import's version to be served",
      positiveNumber,
      600,
    )
    .option("--smoke", "a 1-minute run at scale 0.01 with 10 s periods, to check the soak works (not in CI)")
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .parse(argv, { from: "user" });
  const raw = program.opts<RawOptions>();
  const smoke = raw.smoke ?? false;
  const scale = raw.scale ?? (smoke ? 0.01 : 1);
  const benchDir = path.join(cwd, ".cpb", "bench");
  // A smoke run gets a database of its own, so two of them on one machine do not collide.
  const name = smoke ? `cpb_bench_soak_smoke_${process.pid}` : "cpb_bench_soak";
  return {
    smoke,
    minutes: raw.minutes ?? (smoke ? 1 : 30),
    concurrency: raw.concurrency,
    scale,
    dataDir: raw.data ? path.resolve(cwd, raw.data) : path.join(benchDir, `data-${scale}`),
    dataDirGiven: raw.data !== undefined,
    importEveryMinutes: raw.importEvery ?? (smoke ? 0.3 : 5),
    warmupMinutes: raw.warmup ?? (smoke ? 0.15 : 3),
    reportEverySeconds: raw.reportEvery ?? (smoke ? 10 : 60),
    databaseUrl: `${raw.serverUrl.replace(/\/+$/, "")}/${name}`,
    jsonFile: raw.json
      ? path.resolve(cwd, raw.json)
      : path.join(benchDir, `soak-${scale}${smoke ? "-smoke" : ""}.json`),
    readyTimeoutSeconds: raw.readyTimeout,
    dropAtEnd: smoke,
    serverEnv: raw.serverEnv,
  };
}
