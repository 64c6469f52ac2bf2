import os from "node:os";

/**
 * The environment, read and checked once at start-up (CONVENTIONS.md, Configuration).
 * A bad value stops start-up with a message naming the variable.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** BENCHMARK_AS_OF: a fixed as-of date for time windows, else today (UTC) per request. */
  asOf: string | undefined;
  logLevel: string;
  /** PEER_INDEX: answer the analytics from the in-memory peer index (on) or from PostgreSQL alone (off). */
  peerIndex: boolean;
  /** ANSWER_CACHE_MB: bytes of REST answers kept for repeated requests; 0 keeps none. */
  answerCacheBytes: number;
  /** DRAIN_PERIOD_MS: after SIGTERM, how long the server still accepts and answers before its listener closes. */
  drainMs: number;
  /** ANALYTICS_CONCURRENCY, ANALYTICS_QUEUE, ANALYTICS_MAX_WAIT_MS: the admission gate of the peer-group calls. */
  admission: { concurrency: number; maxQueue: number; maxWaitMs: number };
}

export class ConfigError extends Error {}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function readConfig(env: NodeJS.ProcessEnv, defaults: { host: string; port?: number }): Config {
  return {
    port: readPort(env.PORT, defaults.port ?? 8080),
    host: env.HOST?.trim() || defaults.host,
    databaseUrl: readUrl("DATABASE_URL", env.DATABASE_URL, ["postgres:", "postgresql:"]),
    asOf: readDate("BENCHMARK_AS_OF", env.BENCHMARK_AS_OF),
    logLevel: readChoice("LOG_LEVEL", env.LOG_LEVEL, LOG_LEVELS) ?? "info",
    peerIndex: (readChoice("PEER_INDEX", env.PEER_INDEX, ["on", "off"]) ?? "on") === "on",
    answerCacheBytes: readMegabytes("ANSWER_CACHE_MB", env.ANSWER_CACHE_MB, DEFAULT_ANSWER_CACHE_MB),
    drainMs: readMilliseconds("DRAIN_PERIOD_MS", env.DRAIN_PERIOD_MS, DEFAULT_DRAIN_MS, MAX_DRAIN_MS),
    admission: {
      // The peer index computes on the event loop's core and PostgreSQL on the others:
      // more at once than cores only lengthens every answer.
      concurrency: readCount("ANALYTICS_CONCURRENCY", env.ANALYTICS_CONCURRENCY, Math.max(2, os.availableParallelism())),
      maxQueue: readCount("ANALYTICS_QUEUE", env.ANALYTICS_QUEUE, 64, 0),
      // 32 callers of every operation on 2 cores, an import and a rebuild under way, wait
      // up to about 4 s (npm run soak): refusing them would fail a load the service is for.
      maxWaitMs: readMilliseconds("ANALYTICS_MAX_WAIT_MS", env.ANALYTICS_MAX_WAIT_MS, 5_000, 60_000),
    },
  };
}

function readCount(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined || text.trim() === "") return fallback;
  const count = parseWholeNumber(text.trim());
  if (count === undefined || count < min || count > 10_000) throw new ConfigError(`${name} must be a whole number from ${min} to 10000, not "${text}"`);
  return count;
}

/**
 * A load balancer that probes /readyz every second or two has stopped sending within
 * the default drain period. At most 6 s of the 10 s a stop may take (CONVENTIONS.md):
 * the rest is for the requests still running and the pool.
 */
const DEFAULT_DRAIN_MS = 3_000;
export const MAX_DRAIN_MS = 6_000;

function readMilliseconds(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined || text.trim() === "") return fallback;
  const ms = parseWholeNumber(text.trim());
  if (ms === undefined || ms > max) throw new ConfigError(`${name} must be a whole number of milliseconds from 0 to ${max}, not "${text}"`);
  return ms;
}

/** Room for kept answers by default: every popular peer group's answers, the megabyte ones included. */
const DEFAULT_ANSWER_CACHE_MB = 32;

export function readPort(text: string | undefined, fallback: number, name = "PORT"): number {
  if (text === undefined || text.trim() === "") return fallback;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a port number (0-65535), not "${text}"`);
  }
  return port;
}

function readUrl(name: string, text: string | undefined, protocols: string[]): string | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} is not a URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  }
  return text;
}

/** A real calendar date written YYYY-MM-DD. */
export function readDate(name: string, text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const date = new Date(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw new ConfigError(`${name} must be a date written YYYY-MM-DD, not "${text}"`);
  }
  return text;
}

function readChoice(name: string, text: string | undefined, choices: string[]): string | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  if (!choices.includes(text)) throw new ConfigError(`${name} must be one of ${choices.join(", ")}, not "${text}"`);
  return text;
}

function readMegabytes(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === "") return fallback * 1024 * 1024;
  const megabytes = parseWholeNumber(text.trim());
  if (megabytes === undefined) throw new ConfigError(`${name} must be a whole number of MiB, not "${text}"`);
  return megabytes * 1024 * 1024;
}

/** Digits only, and a safe integer; undefined otherwise. */
export function parseWholeNumber(text: string): number | undefined {
  const value = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(value) ? value : undefined;
}
