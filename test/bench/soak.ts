/**
 * The soak of issue 14: `npm run soak` (not in CI).
 *
 * Generates (when missing) and imports `--scale` × Advisen scale into its own database,
 * starts `cpb serve` (peer index on, authentication on, its own process), then for
 * `--minutes`: `--concurrency` clients in another process send, without pause, every
 * v2.0 REST operation over peer groups of every width (soak/request-mix.ts), while
 * `cpb import --replace` of the same folder runs every `--import-every` minutes. The
 * same folder, so every snapshot is the same size and RSS compares like with like.
 *
 * Every `--report-every` seconds it prints throughput, p50/p95/p99/max per operation,
 * failures (count and the first distinct statuses and messages), the server's
 * event-loop delay (/readyz) and /healthz latency, and the RSS of the server's process
 * tree. Exits 1 on any error (a request without its 200, a failed import, /readyz or
 * /healthz failing, a process gone) or when RSS grows more than 10% after warm-up
 * (the rule is in soak/rss-watch.ts and printed at the end).
 *
 *   npm run soak                                     # 30 minutes at Advisen scale
 *   npm run soak -- --smoke                          # 1 minute at scale 0.01
 *   npm run soak -- --data /tmp/advisen/data --minutes 4 --import-every 2
 *   npm run soak -- --help                           # every option
 */
import { createBenchRun } from "./peer/bench-run.js";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { dropDatabase, importFolder, migrate, recreateDatabase, withClient } from "./peer/bench-database.js";
import { findClasses } from "./peer/classes.js";
import { prepareDataFolder } from "./peer/data-folder.js";
import { describeMachine } from "./peer/machine.js";
import { AS_OF, countsAt, SEED } from "./peer/options.js";
import { startRssSampler } from "./peer/process-rss.js";
import { startServerWithIdentity } from "./peer/server-process.js";
import { startClients } from "./soak/clients.js";
import { countError, createErrorTally } from "./soak/error-tally.js";
import { startImportSchedule } from "./soak/import-schedule.js";
import { sampleLookups } from "./soak/lookup-samples.js";
import { SOAK_OPERATIONS } from "./soak/operations.js";
import { readSoakOptions } from "./soak/options.js";
import { groupLabel, soakPeerGroups } from "./soak/peer-groups.js";
import { runPeriods } from "./soak/periods.js";
import { formatSummary, mib, type SoakVerdict } from "./soak/report.js";
import { createRssWatch, RSS_RULE } from "./soak/rss-watch.js";

const options = readSoakOptions(process.argv.slice(2));
const startedAt = new Date();
const errors = createErrorTally();
const { cleanups, step, run } = createBenchRun("soak");

/** Every half second: 120 samples a minute for each period's median. */
const RSS_INTERVAL_MS = 500;

await run(main);

async function main(): Promise<void> {
  const counts = countsAt(options.scale);
  const { databaseUrl } = options;
  await prepareDataFolder(options.dataDir, { ...counts, seed: SEED, asOf: AS_OF }, options.dataDirGiven);
  await recreateDatabase(databaseUrl);
  if (options.dropAtEnd) cleanups.push(() => dropDatabase(databaseUrl));
  await migrate(databaseUrl);
  const firstImportMs = await importFolder(databaseUrl, options.dataDir);
  step(`database ${databaseUrl}: imported ${options.dataDir} in ${(firstImportMs / 1000).toFixed(1)} s`);
  const { machine, classes, lookups } = await withClient(databaseUrl, async (client) => ({
    machine: await describeMachine(client),
    classes: await findClasses(client, AS_OF),
    lookups: await sampleLookups(client),
  }));
  const groups = soakPeerGroups(classes);
  step(`${SOAK_OPERATIONS.length} operations × ${groups.length} peer groups: ${groups.map(groupLabel).join("; ")}`);

  const { identity, server } = await startServerWithIdentity({
    databaseUrl,
    peerIndex: "on",
    env: options.serverEnv,
    logFile: `${options.jsonFile.replace(/\.json$/, "")}.server.log`,
  });
  cleanups.push(
    () => identity.close(),
    () => server.stop(),
  );
  const rss = startRssSampler(server.pid, RSS_INTERVAL_MS);
  cleanups.push(async () => rss.stop());
  step(`cpb serve (pid ${server.pid}) at ${server.baseUrl}: waiting for /readyz`);
  const ready = await server.ready(options.readyTimeoutSeconds * 1000);
  // /readyz's event-loop delay counts from the server's start: what start-up alone left in it.
  const startDelay = ready.eventLoopDelayMs;
  step(
    `ready; event-loop delay so far (start-up, first index build): ${startDelay ? `p99 ${startDelay.p99} ms, max ${startDelay.max} ms` : "n/a"}`,
  );

  const clients = await startClients({
    baseUrl: server.baseUrl,
    token: identity.token,
    concurrency: options.concurrency,
    mix: { groups, lookups, seed: SEED },
  });
  cleanups.push(() => clients.close());
  const loadStart = performance.now();
  const loadEnd = loadStart + options.minutes * 60_000;
  const importEveryMs = options.importEveryMinutes * 60_000;
  step(
    `load: ${options.concurrency} clients for ${options.minutes} min; cpb import --replace every ${options.importEveryMinutes} min; a report every ${options.reportEverySeconds} s`,
  );
  step(RSS_RULE);

  const imports = startImportSchedule({
    databaseUrl,
    dataDir: options.dataDir,
    serverUrl: server.baseUrl,
    startAt: loadStart,
    everyMs: importEveryMs,
    until: loadEnd,
    timeoutMs: options.readyTimeoutSeconds * 1000,
    fail: (what) => countError(errors, what),
    step,
  });
  cleanups.push(() => imports.stop());
  const rssWatch = createRssWatch({
    warmUpEndsAt() {
      const minimum = loadStart + options.warmupMinutes * 60_000;
      if (loadStart + importEveryMs >= loadEnd) return minimum; // no import in this run
      const settled = imports.firstSettledAt();
      return settled === undefined ? undefined : Math.max(minimum, settled);
    },
  });

  const { windows, run } = await runPeriods({
    server,
    clients,
    imports,
    rss,
    rssWatch,
    loadStart,
    loadEnd,
    periodMs: options.reportEverySeconds * 1000,
    errors,
  });
  await imports.stop();
  const seconds = (performance.now() - loadStart) / 1000;

  const rssVerdict = rssWatch.verdict();
  const verdict: SoakVerdict = { errors, rss: rssVerdict, passed: errors.count === 0 && rssVerdict.passed };
  console.log(`\n${formatSummary(run, seconds, imports.imports(), verdict)}`);
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine,
    settings: { ...options, seed: SEED, asOf: AS_OF, database: new URL(databaseUrl).pathname.slice(1) },
    data: { ...counts, firstImportMs },
    peerGroups: groups.map(groupLabel),
    operations: SOAK_OPERATIONS.map((o) => o.name),
    seconds,
    run,
    windows,
    imports: imports.imports().map((i) => ({ ...i, startedAtSeconds: (i.startedAt - loadStart) / 1000 })),
    rss: { ...rssVerdict, peakBytes: rss.peak() },
    verdict,
  };
  await mkdir(path.dirname(options.jsonFile), { recursive: true });
  await writeFile(options.jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results: ${options.jsonFile}; server peak RSS ${mib(rss.peak())}`);
  if (!verdict.passed) process.exitCode = 1;
}
