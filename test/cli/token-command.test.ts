// `cpb token` (issue 49): with no provider where it looks, it names the URL it tried and
// why, not fetch's bare "fetch failed"; it looks on PORT; with --issuer it gets a token.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import t from "tap";
import { freePort } from "../../src/dev/free-port.js";
import { startIdentity } from "../bench/peer/identity.js";

const run = promisify(execFile);
const CPB = new URL("../../bin/cpb.js", import.meta.url).pathname;

t.test("no provider on PORT: the URL tried, the reason and what to do", async (t) => {
  const port = await freePort();
  const failed = await run(process.execPath, [CPB, "token"], { env: { ...process.env, PORT: String(port) } }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  t.equal(failed?.code, 1, "exit status 1");
  t.match(failed?.stderr, new RegExp(`no token from http://127\\.0\\.0\\.1:${port}/oidc: connect ECONNREFUSED`));
  t.match(failed?.stderr, /is it running there\? Or pass --issuer/);
});

t.test("--issuer: a token from that provider", async (t) => {
  const identity = await startIdentity();
  t.teardown(() => identity.close());
  const { stdout } = await run(process.execPath, [CPB, "token", "--issuer", identity.issuer]);
  t.match(stdout.trim(), /^ey[\w-]+\.[\w-]+\.[\w-]+$/, "a JWT");
});
