/**
 * The warm path's CPU per answer: one cached request (the narrow class's POST total
 * program count) at a fixed rate (the bench's load generator, autocannon's
 * overallRate), the server's CPU time (every thread, /proc/PID/stat) divided by the
 * answers, against the bare `node:http` server answering the same bytes at the same
 * rate, in alternating rounds. At a fixed rate both sides do the same work, so the
 * figure is steadier on a noisy machine than the throughput ratio of `npm run bench`,
 * which it complements when one step of the warm path is changed.
 *
 *   npm run bench -- --scale 1          # once: generates and imports cpb_bench_1
 *   npm run bench:warm-cpu -- --scale 1 --rate 8000 --seconds 5 --rounds 5
 */
import path from "node:path";
import { Command } from "commander";
import { startBareServer } from "./peer/bare-server.js";
import { withClient } from "./peer/bench-database.js";
import { findClasses } from "./peer/classes.js";
import { startLoadGenerator } from "./peer/load-generator.js";
import { operationNamed } from "./peer/operations.js";
import { AS_OF, benchDatabaseUrl, positiveNumber } from "./peer/options.js";
import { cpuSeconds } from "./peer/process-cpu.js";
import { startServerWithIdentity } from "./peer/server-process.js";
import { median } from "./peer/stats.js";
import { baseVariant } from "./peer/variants.js";
import { loadSpec } from "./peer/warm-run.js";

const options = new Command("bench:warm-cpu")
  .option("--scale <n>", "the scale `npm run bench` imported (database cpb_bench_<scale>)", positiveNumber, 1)
  .option("--rate <n>", "requests a second, below both servers' capacity", positiveNumber, 8000)
  .option("--seconds <n>", "of each round", positiveNumber, 5)
  .option("--rounds <n>", "server then bare, this many times", positiveNumber, 5)
  .parse()
  .opts<{ scale: number; rate: number; seconds: number; rounds: number }>();

const databaseUrl = benchDatabaseUrl(options.scale);

const narrow = (await withClient(databaseUrl, (client) => findClasses(client, AS_OF)))[0]!;
const call = operationNamed("POST total program count").call(narrow, baseVariant(narrow));
const { identity, server } = await startServerWithIdentity({
  databaseUrl,
  peerIndex: "on",
  logFile: path.join(".cpb", "bench", "warm-cpu-server.log"),
});
const bare = await startBareServer();
const load = await startLoadGenerator();
try {
  await server.ready(300_000);
  const headers = { authorization: `Bearer ${identity.token}`, "content-type": "application/json" };
  const first = await fetch(`${server.baseUrl}${call.path}`, { method: call.method, headers, body: call.body });
  const body = Buffer.from(await first.arrayBuffer());
  const contentType = first.headers.get("content-type") ?? "application/json";
  await bare.serve({ status: first.status, contentType, bodyBase64: body.toString("base64") });
  const ratios: number[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const perAnswer = async (url: string, pid: number) => {
      const before = cpuSeconds(pid);
      const spec = loadSpec(url, identity.token, call, 32, options.seconds);
      const result = await load.run({ ...spec, overallRate: options.rate });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      return ((cpuSeconds(pid) - before) / result.requests) * 1e6;
    };
    const serverUs = await perAnswer(server.baseUrl, server.pid);
    const bareUs = await perAnswer(bare.url, bare.pid);
    ratios.push(serverUs / bareUs);
    console.log(`round ${round}: server ${serverUs.toFixed(1)} µs, bare ${bareUs.toFixed(1)} µs per answer`);
  }
  console.log(`server ÷ bare CPU per answer: median ${median(ratios).toFixed(2)} (${options.rate} answers/s)`);
} finally {
  await load.close();
  await bare.close();
  await server.stop();
  await identity.close();
}
