import { spawn, type ChildProcess } from "node:child_process";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import { freePort } from "../../src/dev/free-port.js";
import { CPB_BIN } from "../bench/peer/cpb-command.js";
import { startIdentity } from "../bench/peer/identity.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface ServeProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** A valid access token from the process's identity provider. */
  token: string;
  /** Another valid token, new to the server: a caller it has not yet verified. */
  freshToken(): Promise<string>;
  /** The exit status, once it has exited. */
  exited: Promise<number | null>;
  stderr(): string;
}

/**
 * `cpb serve` as production runs it, in its own process (what signals and overload are
 * tested on), trusting a real OpenID provider in this process; killed with the test.
 */
export async function startServeProcess(
  t: Teardown,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const identity = await startIdentity();
  t.teardown(() => identity.close());
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CPB_BIN, "serve"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      AUTH_ISSUER: identity.issuer,
      AUTH_AUDIENCE: identity.audience,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  t.teardown(() => void child.kill("SIGKILL"));
  for (let i = 0; ; i++) {
    const status = await fetch(`${base}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    if (i === 300 || child.exitCode !== null) throw new Error(`cpb serve was not ready within 30 s:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const freshToken = () =>
    fetchAccessToken({ issuer: identity.issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
  return { child, port, base, token: identity.token, freshToken, exited, stderr: () => stderr };
}
