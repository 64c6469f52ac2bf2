import { spawn } from "node:child_process";
import { CPB_BIN } from "../bench/peer/cpb-command.js";

export interface Replica {
  name: string;
  /** host:port, as the balancer names it. */
  address: string;
  /** Starts `cpb serve` (again, after a stop); resolves once it has spawned. */
  start(): void;
  /** Sends a signal and resolves with the exit code (null when killed). */
  stop(signal: "SIGTERM" | "SIGKILL"): Promise<number | null>;
  /** Resolves once /readyz says 200. */
  ready(timeoutMs?: number): Promise<void>;
  /** Its /readyz document. */
  readiness(): Promise<{ datasetVersion: number | null; peerIndex: { version: number | null; buildMs: number } }>;
  /** What it wrote to stderr, every run. */
  log(): string;
}

/** `cpb serve` as production runs it, compiled, in its own process, on a fixed port it keeps across restarts. */
export function createReplica(name: string, port: number, env: Record<string, string>): Replica {
  let output = "";
  let exited: Promise<number | null> = Promise.resolve(null);
  let child: ReturnType<typeof spawn> | undefined;
  const base = `http://127.0.0.1:${port}`;
  return {
    name,
    address: `127.0.0.1:${port}`,
    start() {
      child = spawn(process.execPath, [CPB_BIN, "serve"], {
        env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
        stdio: ["ignore", "ignore", "pipe"],
      });
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const running = child;
      exited = new Promise((resolve) => running.once("exit", (code) => resolve(code)));
    },
    async stop(signal) {
      child?.kill(signal);
      return exited;
    },
    async ready(timeoutMs = 60_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const status = await fetch(`${base}/readyz`).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) return;
        if (performance.now() > deadline || child?.exitCode != null)
          throw new Error(`${name} not ready (${status}):\n${output.slice(-3000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    readiness: async () => (await fetch(`${base}/readyz`)).json() as never,
    log: () => output,
  };
}
