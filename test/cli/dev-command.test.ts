import t from "tap";
import { execFile, spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";

const cpb = fileURLToPath(new URL("../../bin/cpb.js", import.meta.url));
const run = promisify(execFile);

t.test("cpb dev serves its data, prints a curl line that works as printed, and drains on SIGTERM", async (t) => {
  const workDir = await mkdtemp(path.join(tmpdir(), "cpb-dev-"));
  await chmod(workDir, 0o755); // the embedded PostgreSQL runs as the OS user postgres
  t.teardown(() => rm(workDir, { recursive: true, force: true }));
  await generateDataset(path.join(workDir, "data"), { companies: 50, programs: 200, losses: 40, seed: "dev-test" });

  const child = spawn(process.execPath, [cpb, "dev", "--port", "0", "--data", "data"], {
    cwd: workDir,
    env: { ...process.env, DATABASE_URL: "", LOG_LEVEL: "warn" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let logged = "";
  child.stdout.on("data", (chunk: Buffer) => (logged += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  t.teardown(() => void child.kill("SIGKILL"));

  const curlLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${stderr}`)), 60_000);
    child.stderr.on("data", () => {
      const line = /^\s*(curl -s .+)$/m.exec(stderr)?.[1];
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
  t.match(stderr, /Commercial Policy Benchmark service at http:\/\/127\.0\.0\.1:\d+/);

  const { stdout } = await run("sh", ["-c", curlLine]);
  t.match(
    JSON.parse(stdout),
    { id: 1, companyName: String, organizationType: String },
    "the printed curl line answers a company",
  );
  t.match(curlLine, /-H "Authorization: Bearer ey/, "with the printed token");
  const base = /https?:\/\/127\.0\.0\.1:\d+/.exec(curlLine)![0];
  let ready: { datasetVersion?: number } = {};
  for (let i = 0; i < 50 && ready.datasetVersion !== 1; i++, await new Promise((r) => setTimeout(r, 100))) {
    ready = (await (await fetch(`${base}/readyz`)).json()) as { datasetVersion?: number };
  }
  t.equal(ready.datasetVersion, 1, "the server follows the dataset version of its database");
  t.match(stderr, `${base}/docs`, "the banner names the reference");
  t.match(
    stderr,
    new RegExp(`Console: .*${base}/console/ \\(sign in as demo, password demo-password\\)`),
    "the banner names the console and its demo user",
  );
  const consoleConfig = (await (await fetch(`${base}/console/config.json`)).json()) as Record<string, unknown>;
  t.match(
    consoleConfig,
    { issuer: `${base}/oidc`, clientId: "cpb-console", resource: "api://commercialpolicybenchmark", scope: "openid" },
    "the console signs in at the dev provider",
  );
  t.match(
    logged,
    /"level":40.*"msg":"DISCLOSURE_RULE=none: partner data is answered without disclosure control"/,
    "a warning: no disclosure rule",
  );
  const contract = (await (await fetch(`${base}/openapi.json`)).json()) as {
    components: { securitySchemes: { openId: { openIdConnectUrl: string } } };
  };
  t.match(
    contract.components.securitySchemes.openId.openIdConnectUrl,
    new RegExp(`^${base}/.+/\\.well-known/openid-configuration$`),
    "/openapi.json points at the dev provider",
  );

  const stopping = Date.now();
  child.kill("SIGTERM");
  t.equal(await exited, 0, "exits 0 after SIGTERM");
  t.ok(Date.now() - stopping < 10_000, "within 10 s");
});

t.test("bad usage or configuration exits 2 with a message", async (t) => {
  const fail = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [cpb, ...args], { env: { ...process.env, ...env } }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
  const missingDir = await fail(["generate"]);
  t.equal(missingDir.code, 2);
  t.match(missingDir.stderr, /missing required argument 'dir'/);
  const badCount = await fail(["generate", "/tmp/x", "--companies", "many"]);
  t.equal(badCount.code, 2);
  t.match(badCount.stderr, /"many" is not a whole number/);
  const noDatabase = await fail(["migrate"], { DATABASE_URL: "" });
  t.equal(noDatabase.code, 2);
  t.match(noDatabase.stderr, /DATABASE_URL is not set/);
  const badPort = await fail(["migrate"], { PORT: "eighty", DATABASE_URL: "postgres://x@127.0.0.1/x" });
  t.equal(badPort.code, 2);
  t.match(badPort.stderr, /PORT must be a port number/);
  const noAuth = await fail(["serve"], {
    DATABASE_URL: "postgres://x@127.0.0.1/x",
    AUTH_ISSUER: "",
    AUTH_AUDIENCE: "",
  });
  t.equal(noAuth.code, 2, "serve never starts without authentication");
  t.match(noAuth.stderr, /AUTH_ISSUER, AUTH_AUDIENCE must be set/);
  const nothing = await fail(["serve"], { DATABASE_URL: "", AUTH_ISSUER: "", AUTH_AUDIENCE: "" });
  t.match(nothing.stderr, /DATABASE_URL, AUTH_ISSUER, AUTH_AUDIENCE must be set/);
  const plainHttp = await fail(["serve"], {
    DATABASE_URL: "postgres://x@127.0.0.1/x",
    AUTH_ISSUER: "http://idp.example.com",
    AUTH_AUDIENCE: "api://x",
  });
  t.equal(plainHttp.code, 2);
  t.match(plainHttp.stderr, /AUTH_ISSUER must be https/);
  const badCache = await fail(["migrate"], { ANSWER_CACHE_MB: "lots", DATABASE_URL: "postgres://x@127.0.0.1/x" });
  t.equal(badCache.code, 2);
  t.match(badCache.stderr, /ANSWER_CACHE_MB must be a whole number of MiB, not "lots"/);
  const unknown = await fail(["frobnicate"]);
  t.equal(unknown.code, 2);
});
