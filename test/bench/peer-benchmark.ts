/**
 * The peer-query benchmark of CONVENTIONS.md (Performance measurement): `npm run bench`.
 *
 * Generates (seed 7, as-of 2026-11-01) and imports `--scale` × Advisen scale, starts
 * `cpb serve` with authentication on (a dev OpenID provider runs in this process), and
 * measures, for each class (narrow, broad, broadest) × operation (POST assessment, POST
 * RPM, POST total program count, POST limit adequacy, GET assessment; and the market
 * trend at 12 x 3-month periods, at the broadest class only):
 *   - cold: concurrency 1, every request different, p50/p95 against the limits;
 *   - warm: one request repeated at concurrency 32 by autocannon in another process,
 *     against a bare node:http server answering the same bytes in the same run;
 * then a rebuild (the dataset version bumped as an import does) under load, and the RSS
 * of the server's process tree throughout. Prints a table, writes JSON
 * (default .cpb/bench/results-<scale>.json), exits 1 when any request failed.
 *
 *   npm run bench                         # scale 0.1
 *   npm run bench -- --smoke              # CI: tiny, under a minute
 *   npm run bench -- --scale 1 --reuse --database-url postgres://…/cpb_advisen --data /tmp/advisen/data
 *   npm run bench -- --scale 1 --reuse --only "limit adequacy"   # while working on one operation
 *   npm run bench -- --help               # every option
 */
import { createBenchRun } from "./peer/bench-run.js";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { startBareServer, type BareServer } from "./peer/bare-server.js";
import {
  dropDatabase,
  holdsImport,
  importFolder,
  migrate,
  recreateDatabase,
  withClient,
} from "./peer/bench-database.js";
import { findClasses, type PeerClass } from "./peer/classes.js";
import { runCold, type ColdResult } from "./peer/cold-run.js";
import { prepareDataFolder } from "./peer/data-folder.js";
import { centsText } from "./peer/decimal-text.js";
import { createFailureLog } from "./peer/failures.js";
import { createApiClient, type ApiClient } from "./peer/http-client.js";
import { startLoadGenerator, type LoadGenerator } from "./peer/load-generator.js";
import { describeMachine } from "./peer/machine.js";
import { coldLimitMs, measuredAt, operationNamed, OPERATIONS, type Operation } from "./peer/operations.js";
import { AS_OF, countsAt, readOptions, SEED } from "./peer/options.js";
import { startRssSampler } from "./peer/process-rss.js";
import { startHealthProbe } from "./peer/health-probe.js";
import { runRebuild } from "./peer/rebuild.js";
import { fetchReference, type ClassReference } from "./peer/reference-answers.js";
import { classReport, formatReport, limitFor, type BenchReport, type ReportRow } from "./peer/report.js";
import { startServerWithIdentity } from "./peer/server-process.js";
import { baseVariant, createVariants } from "./peer/variants.js";
import { loadSpec, primeLoad, runWarm } from "./peer/warm-run.js";

const options = readOptions(process.argv.slice(2));
const startedAt = new Date();
const failures = createFailureLog();
const { cleanups, cleanUp, step, run } = createBenchRun("bench");

await run(main);

async function main(): Promise<void> {
  const counts = countsAt(options.scale);
  const { databaseUrl } = options;
  const data = await prepareData(counts);
  const { machine, classes } = await withClient(databaseUrl, async (client) => ({
    machine: await describeMachine(client),
    classes: await findClasses(client, AS_OF),
  }));

  // The server, with authentication on, its memory sampled from its first moment.
  const { identity, server } = await startServerWithIdentity({
    databaseUrl,
    peerIndex: options.engine === "index" ? "on" : "off",
    logFile: `${options.jsonFile.replace(/\.json$/, "")}.server.log`,
  });
  cleanups.push(
    () => identity.close(),
    () => server.stop(),
  );
  const rss = startRssSampler(server.pid);
  cleanups.push(async () => rss.stop());
  step(`cpb serve (pid ${server.pid}) at ${server.baseUrl}: waiting for /readyz`);
  const readyz = await server.ready(options.readyTimeoutSeconds * 1000);
  const readyMs = performance.now() - server.startedAt;
  step(
    `ready in ${(readyMs / 1000).toFixed(1)} s; peer index: ${readyz.peerIndex ? JSON.stringify(readyz.peerIndex) : "n/a"}`,
  );
  // The resident set of a ready server before any request: what a replica holds at rest.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await rss.sample();
  const quietRssBytes = rss.samples().at(-1)?.bytes ?? 0;

  const health = startHealthProbe(server.baseUrl);
  const client = createApiClient(server.baseUrl, identity.token);
  cleanups.push(async () => client.close());
  const load = await startLoadGenerator();
  cleanups.push(() => load.close());
  const bare = await startBareServer();
  cleanups.push(() => bare.close());

  // Each class's peer count and each row's reference answer (the warm runs repeat it).
  const references = new Map<PeerClass, ClassReference>();
  for (const c of classes) {
    const reference = await fetchReference(client, c);
    references.set(c, reference);
    step(
      `${c.name}: ${reference.peers} peer programs (naics ${c.naics.join(",")}, coverage ${c.coverageId}, LOB ${c.lineOfBusinessId.join(",")}, revenues ${centsText(c.exposureRangeLow)} to ${centsText(c.exposureRangeHigh)})`,
    );
  }

  const cold = await measureCold(classes, references, client);
  const first = classes[0]!;
  const firstOperation = OPERATIONS[0]!;
  await primeLoad({
    load,
    bare,
    serverUrl: server.baseUrl,
    token: identity.token,
    answer: references.get(first)!.answers.get(firstOperation)!,
    call: firstOperation.call(first, baseVariant(first)),
    connections: options.connections,
    durationSeconds: Math.min(1, options.durationSeconds),
  });
  const rows = await measureWarm(classes, references, cold, {
    load,
    bare,
    serverUrl: server.baseUrl,
    token: identity.token,
  });

  step("rebuild: dataset version bumped under load");
  const broadest = classes.find((c) => c.name === "broadest")!;
  const rebuild = await runRebuild({
    databaseUrl,
    serverUrl: server.baseUrl,
    load,
    loadSpec: loadSpec(
      server.baseUrl,
      identity.token,
      operationNamed("POST assessment").call(broadest, baseVariant(broadest)),
      options.connections,
      3600,
    ),
    rss,
    timeoutMs: options.readyTimeoutSeconds * 1000,
    failures,
  });
  await rss.sample();
  const healthz = await health.stop();
  await cleanUp();

  const report: BenchReport = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine,
    settings: {
      scale: options.scale,
      smoke: options.smoke,
      requests: options.requests,
      warmup: options.warmup,
      durationSeconds: options.durationSeconds,
      connections: options.connections,
      engine: options.engine,
      seed: SEED,
      asOf: AS_OF,
      database: new URL(databaseUrl).pathname.slice(1),
    },
    data: { scale: options.scale, ...counts, ...data },
    classes: classes.map((c) => classReport(c, references.get(c)!.peers)),
    server: {
      engine: options.engine,
      readyMs,
      peerIndex: readyz.peerIndex,
      eventLoopDelayMs: healthz.eventLoopDelayMs,
      healthz,
    },
    rows,
    rss: {
      quietBytes: quietRssBytes,
      peakBytes: rss.peak(),
      rebuildPeakBytes: rebuild.peakRssBytes,
      samples: rss.samples().length,
    },
    rebuild,
    failures,
  };
  console.log(`\n${formatReport(report)}`);
  await mkdir(path.dirname(options.jsonFile), { recursive: true });
  await writeFile(options.jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nresults: ${options.jsonFile}`);
  if (failures.count > 0) process.exitCode = 1;
}

/** A database holding this scale's import: reused (`--reuse`) or made now from the generated folder. */
async function prepareData(
  counts: ReturnType<typeof countsAt>,
): Promise<{ reusedDatabase: boolean; importMs: number | null }> {
  const { databaseUrl } = options;
  if (options.reuse && (await holdsImport(databaseUrl, counts))) {
    step(`database: reusing ${databaseUrl}`);
    await migrate(databaseUrl);
    return { reusedDatabase: true, importMs: null };
  }
  await recreateDatabase(databaseUrl);
  step(`database: created ${databaseUrl}`);
  if (options.dropAtEnd) cleanups.push(() => dropDatabase(databaseUrl));
  await prepareDataFolder(options.dataDir, { ...counts, seed: SEED, asOf: AS_OF }, options.dataDirGiven);
  await migrate(databaseUrl);
  const importMs = await importFolder(databaseUrl, options.dataDir);
  step(`imported in ${(importMs / 1000).toFixed(1)} s`);
  return { reusedDatabase: false, importMs };
}

function rowKey(c: PeerClass, operationName: string): string {
  return `${c.name} ${operationName}`;
}

/** Whether to measure this row: measured at this class, and chosen by `--only`. */
function chosen(operation: Operation, peerClass: PeerClass): boolean {
  return measuredAt(operation, peerClass) && (!options.only || operation.name.toLowerCase().includes(options.only));
}

/** The cold runs of every class × operation; all the requests of a class differ from one another. */
async function measureCold(
  classes: PeerClass[],
  references: Map<PeerClass, ClassReference>,
  client: ApiClient,
): Promise<Map<string, ColdResult>> {
  const cold = new Map<string, ColdResult>();
  for (const [index, peerClass] of classes.entries()) {
    const variants = createVariants(peerClass, index + 1);
    for (const operation of OPERATIONS.filter((o) => chosen(o, peerClass))) {
      const result = await runCold({
        client,
        peerClass,
        operation,
        nextVariant: variants.next,
        peers: references.get(peerClass)!.peers,
        warmup: options.warmup,
        requests: options.requests,
        failures,
      });
      cold.set(rowKey(peerClass, operation.name), result);
      step(
        `cold ${rowKey(peerClass, operation.name)}: p50 ${result.p50Ms.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms, ${result.maxBytes} bytes, ${result.failed} failed`,
      );
    }
    step(`${peerClass.name}: ${variants.distinctHighs()} distinct exposureRangeHigh values`);
  }
  return cold;
}

/** The warm runs of every class × operation (server, then bare server), joined with the cold results into rows. */
async function measureWarm(
  classes: PeerClass[],
  references: Map<PeerClass, ClassReference>,
  cold: Map<string, ColdResult>,
  target: { load: LoadGenerator; bare: BareServer; serverUrl: string; token: string },
): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for (const peerClass of classes) {
    const { peers, answers } = references.get(peerClass)!;
    for (const operation of OPERATIONS.filter((o) => chosen(o, peerClass))) {
      const label = rowKey(peerClass, operation.name);
      const warm = await runWarm({
        ...target,
        call: operation.call(peerClass, baseVariant(peerClass)),
        answer: answers.get(operation)!,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
        label,
        failures,
      });
      const coldResult = cold.get(label)!;
      const limitMs = limitFor(coldLimitMs(operation, peerClass), coldResult.maxBytes);
      rows.push({
        class: peerClass.name,
        operation: operation.name,
        peers,
        bytes: coldResult.maxBytes,
        cold: coldResult,
        limitMs,
        withinLimit: coldResult.p95Ms <= limitMs,
        warm,
      });
      step(
        `warm ${label}: ${Math.round(warm.server.requestsPerSecond)} req/s, bare ${Math.round(warm.bare.requestsPerSecond)} req/s`,
      );
    }
  }
  return rows;
}
