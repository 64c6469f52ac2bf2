import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/** The configuration shipped in deploy/, used as it is. */
export const HAPROXY_CONFIG = path.resolve(import.meta.dirname, "../../deploy/haproxy.cfg");

export interface Balancer {
  /** Where callers connect. */
  url: string;
  /** Each server's state by backend and name, from the stats page: "UP", "DOWN", "UP 1/2"... */
  states(): Promise<Map<string, string>>;
  /** Resolves once the named server of the `ready` backend is UP (or once it is not, with up = false). */
  waitFor(server: string, up: boolean, timeoutMs?: number): Promise<void>;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Debian's HAProxy (`apt-get install -y haproxy`; .ci/run installs it) in the foreground
 * with deploy/haproxy.cfg, its addresses from the environment as the file expects.
 */
export async function startBalancer(options: { listen: string; replicas: readonly string[]; stats: string }) {
  const binary = process.env.HAPROXY_PATH ?? "/usr/sbin/haproxy";
  if (!existsSync(binary)) throw new Error(`no HAProxy at ${binary}: apt-get install -y haproxy, or set HAPROXY_PATH`);
  const env: NodeJS.ProcessEnv = { ...process.env, CPB_LISTEN: options.listen, CPB_STATS: options.stats };
  options.replicas.forEach((address, i) => (env[`CPB_REPLICA_${i + 1}`] = address));
  const child: ChildProcess = spawn(binary, ["-db", "-f", HAPROXY_CONFIG], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const states = async () => {
    const csv = await (await fetch(`http://${options.stats}/stats;csv`)).text();
    const [header, ...lines] = csv.trim().split("\n");
    const columns = header!.replace(/^# /, "").split(",");
    const [pxname, svname, status] = ["pxname", "svname", "status"].map((name) => columns.indexOf(name));
    return new Map(
      lines.map((line) => {
        const cells = line.split(",");
        return [`${cells[pxname!]}/${cells[svname!]}`, cells[status!]!] as const;
      }),
    );
  };
  for (let i = 0; ; i++) {
    if (
      await states().then(
        () => true,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null || i === 100) throw new Error(`HAProxy did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://${options.listen}`,
    states,
    async waitFor(server: string, up: boolean, timeoutMs = 60_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const state = (await states()).get(`ready/${server}`) ?? "";
        if ((state === "UP") === up) return;
        if (performance.now() > deadline)
          throw new Error(`ready/${server} still ${state} after ${timeoutMs} ms\n${output.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    log: () => output,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  } satisfies Balancer;
}
