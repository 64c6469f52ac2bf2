/**
 * The CPU that 1 ms deadlines give back (issue 49): `npm run bench:deadlines`.
 *
 * `cpb serve` (authentication on, the answer cache off so that every call is
 * computed) on an imported database. For each of `--operations` at the broadest
 * class, over gRPC (@grpc/grpc-js, one channel, as a service calling it would), three
 * phases of `--calls` calls, each call a different request:
 *   - no deadline, one at a time: what a call costs the server;
 *   - a 1 ms deadline, one at a time;
 *   - a 1 ms deadline, `--concurrency` at once.
 * For each: the server's CPU per call (every thread, /proc/PID/stat), the statuses
 * the client saw, and the outcome codes of the server's request log lines. A call
 * whose deadline passed should cost a fraction of a full one, and log
 * deadline_exceeded (or canceled), never ok.
 *
 *   npm run bench:deadlines -- --database-url postgres://postgres@127.0.0.1:5432/cpb_advisen
 *   npm run bench:deadlines -- --operations "POST limit adequacy" --calls 100
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as grpc from "@grpc/grpc-js";
import { fromJsonString, toBinary, type DescMethod } from "@bufbuild/protobuf";
import { Command } from "commander";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";
import { withClient } from "./peer/bench-database.js";
import { findClasses } from "./peer/classes.js";
import { operationNamed, type OperationName } from "./peer/operations.js";
import { AS_OF, countAboveZero } from "./peer/options.js";
import { cpuSeconds } from "./peer/process-cpu.js";
import { startServerWithIdentity } from "./peer/server-process.js";
import { createVariants } from "./peer/variants.js";

const options = new Command("bench:deadlines")
  .option(
    "--database-url <url>",
    "an imported database (npm run bench creates one)",
    "postgres://postgres@127.0.0.1:5432/cpb_bench_1",
  )
  .option("--operations <names>", "comma-separated operations of npm run bench", "POST limit adequacy,POST assessment")
  .option("--calls <n>", "calls in each phase", countAboveZero, 200)
  .option("--concurrency <n>", "calls at once in the concurrent phase", countAboveZero, 32)
  .parse()
  .opts<{ databaseUrl: string; operations: string; calls: number; concurrency: number }>();

/** The gRPC method behind each operation of the bench; its REST body is the request message's JSON. */
const METHODS: Partial<Record<OperationName, DescMethod>> = {
  "POST limit adequacy": LossDetailsService.method.postLimitAdequacyData,
  "POST assessment": AssessmentService.method.postAssessmentData,
  "POST market trend": MarketTrendService.method.getMarketTrend,
  "POST loss experience": LossDetailsService.method.getLossExperience,
};

interface Phase {
  name: string;
  deadlineMs: number | undefined;
  concurrency: number;
}

const PHASES: Phase[] = [
  { name: "no deadline, one at a time", deadlineMs: undefined, concurrency: 1 },
  { name: "1 ms deadline, one at a time", deadlineMs: 1, concurrency: 1 },
  { name: "1 ms deadline, concurrent", deadlineMs: 1, concurrency: options.concurrency },
];

const broadest = (await withClient(options.databaseUrl, (client) => findClasses(client, AS_OF))).find(
  (c) => c.name === "broadest",
)!;
const logFile = path.resolve(".cpb/bench/deadlines.server.log");
const { identity, server } = await startServerWithIdentity({
  databaseUrl: options.databaseUrl,
  peerIndex: "on",
  logFile,
  env: { ANSWER_CACHE_MB: "0" },
});
const channel = new grpc.Client(server.baseUrl.replace(/^http:\/\//, ""), grpc.credentials.createInsecure(), {
  "grpc.max_receive_message_length": 64 * 1024 * 1024,
});
try {
  await server.ready(300_000);
  const metadata = new grpc.Metadata();
  metadata.set("authorization", `Bearer ${identity.token}`);
  const rows: Record<string, string | number>[] = [];
  for (const name of options.operations.split(",").map((n) => n.trim() as OperationName)) {
    const method = METHODS[name];
    if (!method) throw new Error(`no gRPC method for ${name}; one of ${Object.keys(METHODS).join(", ")}`);
    const operation = operationNamed(name);
    const variants = createVariants(broadest, 49);
    const nextRequest = () =>
      Buffer.from(
        toBinary(method.input, fromJsonString(method.input, operation.call(broadest, variants.next()).body!)),
      );
    const call = (deadlineMs: number | undefined) =>
      new Promise<string>((resolve) => {
        channel.makeUnaryRequest(
          `/${method.parent.typeName}/${method.name}`,
          (bytes: Buffer) => bytes,
          (bytes: Buffer) => bytes,
          nextRequest(),
          metadata,
          deadlineMs === undefined ? {} : { deadline: Date.now() + deadlineMs },
          (error) => resolve(error ? grpc.status[error.code] : "OK"),
        );
      });
    for (let i = 0; i < 5; i++) await call(undefined); // warm up
    for (const phase of PHASES) {
      await sleep(300); // the previous phase's lines written
      const logFrom = statSync(logFile).size;
      const statuses = new Map<string, number>();
      const before = cpuSeconds(server.pid);
      let sent = 0;
      await Promise.all(
        Array.from({ length: phase.concurrency }, async () => {
          while (sent < options.calls) {
            sent++;
            const status = await call(phase.deadlineMs);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      await sleep(300); // work the server still does for calls the client has given up on
      const cpuMs = ((cpuSeconds(server.pid) - before) * 1000) / options.calls;
      rows.push({
        operation: name,
        phase: phase.name,
        "server CPU ms a call": Number(cpuMs.toFixed(2)),
        client: tally(statuses),
        "server log": tally(loggedCodes(logFrom)),
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
  }
  console.table(rows);
} finally {
  channel.close();
  await server.stop();
  await identity.close();
}

/** The outcome codes of the request lines written from byte `from` of the server's log. */
function loggedCodes(from: number): Map<string, number> {
  const codes = new Map<string, number>();
  for (const line of readFileSync(logFile).subarray(from).toString("utf8").split("\n")) {
    if (!line.includes('"msg":"request"')) continue;
    const { code, path: requestPath } = JSON.parse(line) as { code?: string; path: string };
    if (!requestPath.includes("Service/")) continue;
    codes.set(code ?? "(none)", (codes.get(code ?? "(none)") ?? 0) + 1);
  }
  return codes;
}

function tally(counts: Map<string, number>): string {
  return [...counts].map(([key, n]) => `${key} ${n}`).join(", ");
}
