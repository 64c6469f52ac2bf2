// A Python client, built as docs/other-languages.md says (issue 49): grpcio, grpcio-tools
// and googleapis-common-protos from the pip registry in a throwaway venv, stubs generated
// from proto/, every RPC of every service called and compared with REST, a field
// violation read with googleapis-common-protos alone, a refusal storm under a standard
// retry policy, and 1 ms deadlines whose work the server abandons.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import t from "tap";
import { FIXTURE_AS_OF, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
/** The venv, kept between runs under the ignored .cache/: made again when these versions change. */
const PACKAGES = ["grpcio==1.84.0", "grpcio-tools==1.84.0", "googleapis-common-protos==1.75.5"];
const VENV = path.join(ROOT, ".cache", `python-grpc-${PACKAGES.join("-").replace(/[^\w.-]/g, "")}`);
const PYTHON = path.join(VENV, "bin", "python");
/** One peer-group call at a time and four waiting: a burst of twenty is mostly refused. */
const GATE = { concurrency: 1, maxQueue: 4, maxWaitMs: 5_000 };
/** test/other-languages/python/client.py's DEADLINE_CALLS. */
const DEADLINE_CALLS = 10;

/** The venv of the doc's first step; `--retries 0`: an index that cannot be reached is skipped at once. */
async function pythonWithGrpc(): Promise<string> {
  if (existsSync(PYTHON)) return PYTHON;
  await rm(VENV, { recursive: true, force: true });
  await mkdir(path.dirname(VENV), { recursive: true });
  await run("python3", ["-m", "venv", VENV]);
  await run(PYTHON, ["-m", "pip", "install", "--quiet", "--retries", "0", ...PACKAGES], { timeout: 300_000 });
  return PYTHON;
}

t.test("a Python client calls every RPC, reads field violations, retries refusals", { timeout: 600_000 }, async (t) => {
  const python = await pythonWithGrpc();
  // The doc's second step: google/api and google/rpc come with googleapis-common-protos.
  const sitePackages = (
    await run(python, [
      "-c",
      "import os, google.api.annotations_pb2 as m; print(os.path.dirname(os.path.dirname(os.path.dirname(m.__file__))))",
    ])
  ).stdout.trim();
  const stubs = await createTempDir(t, "cpb-python-stubs-");
  const protos = (await readdir(path.join(ROOT, "proto/commercialpolicybenchmark/v2"))).map(
    (file) => `proto/commercialpolicybenchmark/v2/${file}`,
  );
  await run(
    python,
    [
      "-m",
      "grpc_tools.protoc",
      "-I",
      "proto",
      "-I",
      sitePackages,
      `--python_out=${stubs}`,
      `--grpc_python_out=${stubs}`,
      ...protos,
    ],
    { cwd: ROOT },
  );

  const { knex } = await createTestDatabase(t);
  await insertAnalyticsFixture(knex);
  const logLines: { requestId?: string; msg?: string; code?: string; durationMs?: number }[] = [];
  const { server, authorization } = await startAuthenticatedServer(t, knex, {
    asOf: FIXTURE_AS_OF,
    datasetVersion: () => 1,
    admission: GATE,
    logLines,
  });
  const { stdout } = await run(python, [path.join(ROOT, "test/other-languages/python/client.py")], {
    env: {
      ...process.env,
      PYTHONPATH: stubs,
      CPB_TARGET: server.url.replace(/^http:\/\//, ""),
      CPB_REST: server.url,
      CPB_TOKEN: authorization.replace(/^Bearer /, ""),
    },
    timeout: 300_000,
  });
  const report = JSON.parse(stdout) as {
    rpcs: { rpc: string; sameAsRest: boolean }[];
    fieldViolation: { code: string; violations: { field: string; description: string }[] };
    deadlines: Record<string, number>;
    stormWithoutPolicy: Record<string, number>;
    stormWithPolicy: Record<string, number>;
  };
  t.equal(report.rpcs.length, 14, "every RPC of the six services");
  for (const { rpc, sameAsRest } of report.rpcs) t.ok(sameAsRest, `${rpc}: the same answer as REST`);
  t.match(
    report.fieldViolation,
    {
      code: "INVALID_ARGUMENT",
      violations: [{ field: "naics", description: /"5" is not a 2- or 3-digit NAICS code/ }],
    },
    "google.rpc.BadRequest, decoded without the project's protos",
  );
  t.same(report.deadlines, { DEADLINE_EXCEEDED: DEADLINE_CALLS }, "1 ms deadlines end on the client at once");
  // The server's side: a call it has not finished within the deadline is abandoned, its
  // line says so, and its computation never runs (ten at once through a gate of 1 + 4).
  const deadlineLines = logLines.filter((l) => l.msg === "request" && l.requestId?.startsWith("python-deadline-"));
  t.ok(deadlineLines.length > 0, "the calls reached the server");
  for (const line of deadlineLines) {
    if (line.code === "ok") t.ok(line.durationMs! <= 1, `${line.requestId} answered within its 1 ms`);
    else t.match(line.code, /^(deadline_exceeded|canceled|unavailable)$/, `${line.requestId}: ${line.code}`);
  }
  t.ok(
    deadlineLines.some((l) => l.code === "deadline_exceeded" || l.code === "canceled"),
    `abandoned calls among ${JSON.stringify(deadlineLines.map((l) => l.code))}`,
  );
  t.ok(
    (report.stormWithoutPolicy.UNAVAILABLE ?? 0) > 0,
    `without a retry policy: ${JSON.stringify(report.stormWithoutPolicy)}`,
  );
  t.same(report.stormWithPolicy, { OK: 20 }, "with the standard retry policy, every call answered");
});
