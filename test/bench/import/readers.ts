import pg from "pg";
import { createApiClient, type ApiClient } from "../peer/http-client.js";
import { API_BASE, type ApiCall } from "../peer/operations.js";
import { percentile } from "../peer/stats.js";

export interface ReadingFigures {
  requests: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The slowest request's operation. */
  slowest: string;
}

export interface Readers {
  /** Marks the start of a new period: the figures until now are closed. */
  mark(): ReadingFigures;
  stop(): Promise<ReadingFigures>;
}

interface Timed {
  name: string;
  ms: number;
  ok: boolean;
}

/**
 * `count` API clients, each on its own kept-alive connection, sending without pause a
 * mix of what callers do: a company by id, a company search, and a peer-group
 * benchmark answered by the server's SQL engine (PEER_INDEX=off, so it reads the
 * tables the import rewrites).
 */
export function startReaders(
  baseUrl: string,
  token: string,
  count: number,
  benchmarkCall: ApiCall,
  companies: number,
): Readers {
  let running = true;
  let timed: Timed[] = [];
  const calls: [string, () => ApiCall][] = [
    [
      "company by id",
      () => ({ method: "GET", path: `${API_BASE}/company/${1 + Math.floor(Math.random() * companies)}` }),
    ],
    [
      "company search",
      () => ({
        method: "GET",
        path: `${API_BASE}/company?$filter=${encodeURIComponent(`startswith(CompanyName, '${String.fromCharCode(65 + Math.floor(Math.random() * 26))}')`)}&$top=10`,
      }),
    ],
    ["peer benchmark", () => benchmarkCall],
  ];
  const loop = async (client: ApiClient, offset: number) => {
    for (let i = offset; running; i++) {
      const [name, call] = calls[i % calls.length]!;
      const started = performance.now();
      try {
        const answer = await client.send(call());
        timed.push({ name, ms: answer.ms, ok: answer.status === 200 });
      } catch {
        timed.push({ name, ms: performance.now() - started, ok: false });
      }
    }
  };
  const clients = Array.from({ length: count }, () => createApiClient(baseUrl, token));
  const loops = clients.map((client, i) => loop(client, i));
  const close = (): ReadingFigures => {
    const figures = summarize(timed);
    timed = [];
    return figures;
  };
  return {
    mark: close,
    async stop() {
      running = false;
      await Promise.all(loops);
      for (const client of clients) client.close();
      return close();
    },
  };
}

function summarize(timed: readonly Timed[]): ReadingFigures {
  const ms = timed.map((t) => t.ms);
  const slowest = timed.reduce<Timed | undefined>((max, t) => (!max || t.ms > max.ms ? t : max), undefined);
  return {
    requests: timed.length,
    failed: timed.filter((t) => !t.ok).length,
    p50Ms: percentile(ms, 50),
    p99Ms: percentile(ms, 99),
    maxMs: slowest?.ms ?? Number.NaN,
    slowest: slowest?.name ?? "",
  };
}

/**
 * The longest any backend of the database waited for a lock, sampled from
 * pg_stat_activity every 50 ms: a wait seen from t0 to t1 lasted at least t1 - t0.
 */
export function startLockWatch(databaseUrl: string): { stop(): Promise<{ maxLockWaitMs: number; waits: number }> } {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "cpb-bench-lock-watch" });
  const seen = new Map<string, { first: number; last: number }>();
  let running = true;
  const done = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ key: string }>(
        `select pid || ':' || coalesce(query_start::text, '') as key from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
      );
      const now = performance.now();
      for (const { key } of rows) {
        const wait = seen.get(key);
        if (wait) wait.last = now;
        else seen.set(key, { first: now, last: now });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await done;
      const waits = [...seen.values()];
      return { maxLockWaitMs: waits.reduce((max, w) => Math.max(max, w.last - w.first), 0), waits: waits.length };
    },
  };
}
