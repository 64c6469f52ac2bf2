import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, closeSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../../src/dev/free-port.js";
import { MALLOC_SETTINGS } from "../../../src/cli/malloc-settings.js";
import { CPB_BIN } from "./cpb-command.js";
import { startIdentity, type BenchIdentity } from "./identity.js";
import { AS_OF } from "./options.js";
import { pollReadyz, type Readyz } from "./readyz.js";

export interface ServerSettings {
  databaseUrl: string;
  issuer: string;
  audience: string;
  asOf: string;
  peerIndex: "on" | "off";
  /** The server's stdout and stderr go here (the per-request log line is part of the cost). */
  logFile: string;
  /** More environment for the server (ANSWER_CACHE_MB=0, say). */
  env?: Record<string, string>;
}

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  /** performance.now() when it was spawned. */
  startedAt: number;
  /** Why the process is gone, when it is. */
  exited(): string | undefined;
  /** Waits for /readyz to answer 200 and returns that answer; throws after the timeout. */
  ready(timeoutMs: number): Promise<Readyz>;
  /** SIGTERM (it drains within 10 s), then SIGKILL. */
  stop(): Promise<void>;
}

/** `cpb serve` as production runs it: its own process, on a free loopback port, authentication on. */
export async function startServer(settings: ServerSettings): Promise<ServerProcess> {
  const port = await freePort();
  mkdirSync(path.dirname(settings.logFile), { recursive: true });
  const log = openSync(settings.logFile, "w");
  // CPB_BENCH_SERVER_NODE_ARGS: Node options for the server alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = process.env.CPB_BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, CPB_BIN, "serve"], {
    env: {
      ...process.env,
      DATABASE_URL: settings.databaseUrl,
      AUTH_ISSUER: settings.issuer,
      AUTH_AUDIENCE: settings.audience,
      PORT: String(port),
      HOST: "127.0.0.1",
      BENCHMARK_AS_OF: settings.asOf,
      LOG_LEVEL: "info",
      PEER_INDEX: settings.peerIndex,
      // As docs/operations.md asks of production (Memory).
      ...MALLOC_SETTINGS,
      ...settings.env,
    },
    stdio: ["ignore", log, log],
  });
  const startedAt = performance.now();
  closeSync(log);
  if (child.pid === undefined) throw new Error("cpb serve did not start");
  let exitReason: string | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exitReason = `cpb serve exited (${signal ?? `status ${code}`}); see ${settings.logFile}`;
      resolve();
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    pid: child.pid,
    baseUrl,
    startedAt,
    exited: () => exitReason,
    async ready(timeoutMs) {
      const readyz = await pollReadyz(baseUrl, (r) => r.status === 200, {
        intervalMs: 100,
        timeoutMs,
        abort: () => exitReason,
      });
      if (!readyz) throw new Error(`cpb serve was not ready within ${timeoutMs / 1000} s; see ${settings.logFile}`);
      return readyz;
    },
    async stop() {
      if (exitReason) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exit;
      clearTimeout(killer);
    },
  };
}

/**
 * The dev OpenID provider (identity.ts) and `cpb serve` trusting it, on the bench's
 * as-of date; the caller stops both (the server first).
 */
export async function startServerWithIdentity(
  settings: Pick<ServerSettings, "databaseUrl" | "peerIndex" | "logFile" | "env">,
): Promise<{ identity: BenchIdentity; server: ServerProcess }> {
  const identity = await startIdentity();
  try {
    const server = await startServer({
      ...settings,
      issuer: identity.issuer,
      audience: identity.audience,
      asOf: AS_OF,
    });
    return { identity, server };
  } catch (error) {
    await identity.close();
    throw error;
  }
}
