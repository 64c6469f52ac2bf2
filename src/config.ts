import os from "node:os";
import { isLoopbackHttp } from "./auth/loopback.js";
import { ConfigError } from "./config-error.js";
import { STANDARD_RULE, type DisclosureRule } from "./benchmark/disclosure-rule.js";
import { isPolicyOrigin } from "./pages/page-security.js";

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
  /** PEER_INDEX_SCAN_THREAD: let a second thread take part of the longest index scans (on a machine of two cores or more). */
  scanThread: boolean;
  /** ANSWER_CACHE_MB: bytes of REST answers kept for repeated requests; 0 keeps none. */
  answerCacheBytes: number;
  /** DRAIN_PERIOD_MS: after SIGTERM, how long the server still accepts and answers before its listener closes. */
  drainMs: number;
  /** ANALYTICS_CONCURRENCY, ANALYTICS_QUEUE, ANALYTICS_MAX_WAIT_MS: the admission gate of the peer-group calls. */
  admission: { concurrency: number; maxQueue: number; maxWaitMs: number };
  /** CORS_ORIGINS: the origins whose pages may call the API from a browser ("*" any); none by default. */
  corsOrigins: string[];
  /**
   * METRICS_PORT: where Prometheus scrapes `/metrics` (on HOST), or undefined when unset:
   * no metrics at all. 0 picks a free port (the start-up log names it).
   */
  metricsPort: number | undefined;
  /** DISCLOSURE_RULE and its thresholds: which peer groups' figures are refused to keep contributors' programs confidential. */
  disclosure: DisclosureRule;
  /**
   * CONSOLE_CLIENT_ID, CONSOLE_THIN_GROUP_PROGRAMS, and the overrides CONSOLE_SCOPE and
   * CONSOLE_RESOURCE (`none`, in any case: null, for Entra ID's v2 endpoint, which refuses
   * `resource`): what /console/config.json tells the browser app. CONSOLE_CONNECT_SRC:
   * origins the app may call besides this one, the issuer's and its token endpoint's.
   */
  console: {
    clientId: string;
    thinGroupPrograms: number;
    scope?: string;
    resource?: string | null;
    connectSrc: string[];
  };
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function readConfig(env: NodeJS.ProcessEnv, defaults: { host: string; port?: number }): Config {
  const port = readPort(env.PORT, defaults.port ?? 8080);
  return {
    port,
    host: env.HOST?.trim() || defaults.host,
    databaseUrl: readUrl("DATABASE_URL", env.DATABASE_URL, ["postgres:", "postgresql:"]),
    asOf: readDate("BENCHMARK_AS_OF", env.BENCHMARK_AS_OF),
    logLevel: readChoice("LOG_LEVEL", env.LOG_LEVEL, LOG_LEVELS) ?? "info",
    peerIndex: (readChoice("PEER_INDEX", env.PEER_INDEX, ["on", "off"]) ?? "on") === "on",
    scanThread: (readChoice("PEER_INDEX_SCAN_THREAD", env.PEER_INDEX_SCAN_THREAD, ["on", "off"]) ?? "on") === "on",
    answerCacheBytes: readMegabytes("ANSWER_CACHE_MB", env.ANSWER_CACHE_MB, DEFAULT_ANSWER_CACHE_MB),
    drainMs: readMilliseconds("DRAIN_PERIOD_MS", env.DRAIN_PERIOD_MS, DEFAULT_DRAIN_MS, MAX_DRAIN_MS),
    admission: {
      // The peer index computes on the event loop's core and PostgreSQL on the others:
      // more at once than cores only lengthens every answer.
      concurrency: readCount(
        "ANALYTICS_CONCURRENCY",
        env.ANALYTICS_CONCURRENCY,
        Math.max(2, os.availableParallelism()),
      ),
      maxQueue: readCount("ANALYTICS_QUEUE", env.ANALYTICS_QUEUE, 64, 0),
      // 32 callers of every operation on 2 cores, an import and a rebuild under way, wait
      // up to about 4 s (npm run soak): refusing them would fail a load the service is for.
      maxWaitMs: readMilliseconds("ANALYTICS_MAX_WAIT_MS", env.ANALYTICS_MAX_WAIT_MS, 5_000, 60_000),
    },
    corsOrigins: readOrigins("CORS_ORIGINS", env.CORS_ORIGINS, { any: true }),
    metricsPort: readMetricsPort(env.METRICS_PORT, port),
    disclosure: readDisclosureRule(env),
    console: {
      clientId: env.CONSOLE_CLIENT_ID?.trim() || "cpb-console",
      thinGroupPrograms: readCount("CONSOLE_THIN_GROUP_PROGRAMS", env.CONSOLE_THIN_GROUP_PROGRAMS, 5),
      scope: env.CONSOLE_SCOPE?.trim().split(/\s+/).join(" ") || undefined,
      resource: readResource(env.CONSOLE_RESOURCE),
      connectSrc: readPolicyOrigins("CONSOLE_CONNECT_SRC", env.CONSOLE_CONNECT_SRC),
    },
  };
}

/**
 * Off unless set (CONVENTIONS.md: "on METRICS_PORT when it is set"): a fixed default
 * port would keep the second replica on a host from starting, and replicas may start at
 * the same moment. Its own port, never the API's: the metrics need no token, so that
 * port must stay inside the network.
 */
function readMetricsPort(text: string | undefined, apiPort: number): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const port = parseWholeNumber(text.trim());
  if (port === undefined || port > 65535)
    throw new ConfigError(`METRICS_PORT must be a port number (0-65535), not "${text}"`);
  if (port !== 0 && port === apiPort) throw new ConfigError(`METRICS_PORT must differ from PORT (both are ${port})`);
  return port;
}

function readCount(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined || text.trim() === "") return fallback;
  const count = parseWholeNumber(text.trim());
  if (count === undefined || count < min || count > 10_000)
    throw new ConfigError(`${name} must be a whole number from ${min} to 10000, not "${text}"`);
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
  if (ms === undefined || ms > max)
    throw new ConfigError(`${name} must be a whole number of milliseconds from 0 to ${max}, not "${text}"`);
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

/**
 * CONSOLE_RESOURCE: the resource the console asks tokens for, `none` (any case) for
 * none, or undefined (the audience) when unset.
 */
function readResource(text: string | undefined): string | null | undefined {
  const resource = text?.trim();
  if (!resource) return undefined;
  return resource.toLowerCase() === "none" ? null : resource;
}

/**
 * Origins, comma- or space-separated, each `scheme://host[:port]` as a browser sends it
 * in Origin (no path, no trailing slash), or "*" for any where `any` allows it (CORS; a
 * policy's connect-src must name its origins).
 */
function readOrigins(name: string, text: string | undefined, { any }: { any: boolean }): string[] {
  const origins = (text ?? "").split(/[\s,]+/).filter(Boolean);
  for (const origin of origins) {
    if (any && origin === "*") continue;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) {
      throw new ConfigError(
        `${name} must list origins such as https://app.example.com (scheme, host and port only)${any ? " or *" : ""}, not "${origin}"`,
      );
    }
  }
  return origins;
}

/**
 * Origins for a Content-Security-Policy directive: as readOrigins, never "*", only those
 * a policy can name (isPolicyOrigin: a URL's host may hold `;` or `'`), and https but
 * on a loopback host, as AUTH_ISSUER: the console sends tokens there.
 */
function readPolicyOrigins(name: string, text: string | undefined): string[] {
  const origins = readOrigins(name, text, { any: false });
  const bad = origins.find((origin) => !isPolicyOrigin(origin));
  if (bad)
    throw new ConfigError(
      `${name} must list origins such as https://app.example.com (scheme, host and port only), not "${bad}"`,
    );
  const plain = origins.find((origin) => !origin.startsWith("https:") && !isLoopbackHttp(new URL(origin)));
  if (plain)
    throw new ConfigError(`${name} must list https:// origins (plain http:// only on a loopback host), not "${plain}"`);
  return origins;
}

/**
 * DISCLOSURE_RULE (none or standard) and, under standard, its three thresholds, each
 * overridable. A threshold set under `none` is refused: the operator meant a rule that
 * is not in force, and partner data would be answered unprotected.
 */
function readDisclosureRule(env: NodeJS.ProcessEnv): DisclosureRule {
  const kind = readChoice("DISCLOSURE_RULE", env.DISCLOSURE_RULE, ["none", "standard"]) ?? "none";
  const thresholds = ["DISCLOSURE_MIN_COMPANIES", "DISCLOSURE_MAX_SOURCE_SHARE", "DISCLOSURE_MAX_TOP2_SHARE"] as const;
  if (kind === "none") {
    const stray = thresholds.find((name) => env[name]?.trim());
    if (stray) throw new ConfigError(`${stray} applies only with DISCLOSURE_RULE=standard (it is none)`);
    return { kind };
  }
  return {
    kind,
    minCompanies: readCount("DISCLOSURE_MIN_COMPANIES", env.DISCLOSURE_MIN_COMPANIES, STANDARD_RULE.minCompanies),
    maxSourceShareBasisPoints: readPercent(
      "DISCLOSURE_MAX_SOURCE_SHARE",
      env.DISCLOSURE_MAX_SOURCE_SHARE,
      STANDARD_RULE.maxSourceShareBasisPoints,
    ),
    maxTopTwoShareBasisPoints: readPercent(
      "DISCLOSURE_MAX_TOP2_SHARE",
      env.DISCLOSURE_MAX_TOP2_SHARE,
      STANDARD_RULE.maxTopTwoShareBasisPoints,
    ),
  };
}

/** A percentage above 0 and at most 100, with at most two decimals ("25", "25.5%"), as basis points. */
function readPercent(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === "") return fallback;
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?%?$/.exec(text.trim());
  const basisPoints = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!(basisPoints > 0 && basisPoints <= 10_000))
    throw new ConfigError(`${name} must be a percentage above 0 and at most 100, such as 25 or 25.5%, not "${text}"`);
  return basisPoints;
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

function readChoice<C extends string>(name: string, text: string | undefined, choices: readonly C[]): C | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  if (!choices.includes(text as C))
    throw new ConfigError(`${name} must be one of ${choices.join(", ")}, not "${text}"`);
  return text as C;
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
