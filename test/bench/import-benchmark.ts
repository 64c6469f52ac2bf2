/**
 * The import benchmark of issue 13: `npm run bench:import`.
 *
 * In one run, on one PostgreSQL server, alternating for `--rounds`:
 *   - the floor: psql `\copy` of the folder's CSV files into plain typed tables of a
 *     scratch schema, then their primary keys (the yardstick);
 *   - the schema floor: the same copies into tables of the stored ones' columns and
 *     checks, then every index, key and foreign key of the schema, by psql alone
 *     (what PostgreSQL itself needs to build what an import builds);
 *   - `cpb import` of the same folder into a freshly migrated database: every rule,
 *     every index and reference, the version bump, the statistics;
 *   - the restore floor (issue 31's yardstick): `pg_restore --jobs=2` of a dump of the
 *     database the import built, into a new one;
 * and reports the times and the import's ratio to each floor (the median over rounds). Then, with a
 * server reading that database (SQL engine, authentication on), `cpb import --replace`
 * of the same folder while API clients keep reading: the longest a request took and
 * the longest a backend waited for a lock. Memory: the import process's peak RSS.
 *
 *   npm run bench:import                         # Advisen scale (generated when missing)
 *   npm run bench:import -- --smoke              # CI: scale 0.01
 *   npm run bench:import -- --data /tmp/advisen/data --rounds 3
 */
import { createBenchRun } from "./peer/bench-run.js";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describeMachine } from "./peer/machine.js";
import { dropDatabase, migrate, recreateDatabase, withClient } from "./peer/bench-database.js";
import { findClasses } from "./peer/classes.js";
import { prepareDataFolder } from "./peer/data-folder.js";
import { operationNamed } from "./peer/operations.js";
import { AS_OF, countsAt, SEED } from "./peer/options.js";
import { startServerWithIdentity } from "./peer/server-process.js";
import { median } from "./peer/stats.js";
import { baseVariant } from "./peer/variants.js";
import { measureFloor, measureSchemaFloor, psql, type FloorTiming } from "./import/floor.js";
import { measureRestoreFloor, type RestoreTiming } from "./import/restore-floor.js";
import { runImport, type ImportRun } from "./import/import-run.js";
import { readImportOptions } from "./import/options.js";
import { startLockWatch, startReaders, type ReadingFigures } from "./import/readers.js";

const options = readImportOptions(process.argv.slice(2));
const { cleanups, step, run } = createBenchRun("bench:import");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

await run(main);

async function main(): Promise<void> {
  const counts = countsAt(options.scale);
  await prepareDataFolder(options.dataDir, { ...counts, seed: SEED, asOf: AS_OF }, options.dataDirGiven);
  const { databaseUrl } = options;
  if (options.smoke) cleanups.push(() => dropDatabase(databaseUrl));

  const rounds: { floor: FloorTiming; schemaFloor: FloorTiming; firstLoad: ImportRun; restore: RestoreTiming }[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    await recreateDatabase(databaseUrl);
    await migrate(databaseUrl);
    // Alternate which goes first: the server's caches and checkpoints favour neither.
    const floorsFirst = round % 2 === 1;
    const measureFloors = async () => ({
      floor: await measureFloor(databaseUrl, options.dataDir),
      schemaFloor: await measureSchemaFloor(databaseUrl, options.dataDir),
    });
    const floors = floorsFirst ? await measureFloors() : undefined;
    await checkpoint(databaseUrl);
    const firstLoad = await runImport(databaseUrl, [options.dataDir]);
    const { floor, schemaFloor } = floors ?? (await measureFloors());
    await checkpoint(databaseUrl);
    const restore = await measureRestoreFloor(databaseUrl);
    rounds.push({ floor, schemaFloor, firstLoad, restore });
    step(
      `round ${round}: floor ${seconds(floor.totalMs)}, schema floor ${seconds(schemaFloor.totalMs)}, restore floor ${seconds(restore.totalMs)}, cpb import ${seconds(firstLoad.ms)}: ` +
        `${(firstLoad.ms / floor.totalMs).toFixed(2)}x the floor, ${(firstLoad.ms / schemaFloor.totalMs).toFixed(2)}x the schema floor, ${(firstLoad.ms / restore.totalMs).toFixed(2)}x the restore floor`,
    );
  }
  const last = rounds.at(-1)!;
  for (const line of last.firstLoad.summary) console.log(`  ${line}`);

  step("readers: a server on the imported data, API clients reading, then cpb import --replace");
  const reading = await measureReaders(databaseUrl, counts.companies);

  const machine = await withClient(databaseUrl, describeMachine);
  const report = {
    startedAt: new Date().toISOString(),
    options: { scale: options.scale, rounds: options.rounds, data: options.dataDir, readers: options.readers },
    machine,
    rounds,
    ratio: median(rounds.map((r) => r.firstLoad.ms / r.floor.totalMs)),
    schemaRatio: median(rounds.map((r) => r.firstLoad.ms / r.schemaFloor.totalMs)),
    restoreRatio: median(rounds.map((r) => r.firstLoad.ms / r.restore.totalMs)),
    reading,
  };
  await mkdir(path.dirname(options.jsonFile), { recursive: true });
  await writeFile(options.jsonFile, `${JSON.stringify(report, null, 2)}\n`);

  const { floor, schemaFloor, restore } = last;
  const ratios = (of: (r: (typeof rounds)[number]) => { totalMs: number }) =>
    rounds.map((r) => (r.firstLoad.ms / of(r).totalMs).toFixed(2)).join(", ");
  console.log(`
floor (psql \\copy + primary keys): ${seconds(floor.totalMs)}  (${steps(floor)}; keys ${seconds(floor.afterCopyMs)})
schema floor (psql, whole schema):  ${seconds(schemaFloor.totalMs)}  (${steps(schemaFloor)}; indexes, keys, statistics ${seconds(schemaFloor.afterCopyMs)})
restore floor (pg_restore --jobs=2): ${seconds(restore.totalMs)}  (a dump of ${mib(restore.dumpBytes)} of the imported database)
cpb import, first load:            ${seconds(last.firstLoad.ms)}  peak RSS ${mib(last.firstLoad.peakRssBytes)}
machine CPU (all processes):        floor ${floor.cpuSeconds.toFixed(1)} s, schema floor ${schemaFloor.cpuSeconds.toFixed(1)} s, restore floor ${restore.cpuSeconds.toFixed(1)} s, import ${last.firstLoad.cpuSeconds.toFixed(1)} s (${cores(last.firstLoad)} of ${os.availableParallelism()} cores busy)
ratio to the floor (median of ${rounds.length}):        ${report.ratio.toFixed(2)}x  (rounds: ${ratios((r) => r.floor)})
ratio to the schema floor (median): ${report.schemaRatio.toFixed(2)}x  (rounds: ${ratios((r) => r.schemaFloor)})
ratio to the restore floor (median): ${report.restoreRatio.toFixed(2)}x  (rounds: ${ratios((r) => r.restore)}; the goal is 1.5x at most)
cpb import --replace under readers: ${seconds(reading.replace.ms)}  peak RSS ${mib(reading.replace.peakRssBytes)}
readers before: ${figures(reading.before)}
readers during: ${figures(reading.during)}
longest lock wait during the import: ${Math.round(reading.locks.maxLockWaitMs)} ms (${reading.locks.waits} waits seen)
written to ${options.jsonFile}`);
  if (reading.during.failed > 0 || reading.before.failed > 0) throw new Error("some reads failed");
}

function steps(floor: FloorTiming): string {
  return Object.entries(floor.copyMs)
    .map(([file, ms]) => `${file} ${seconds(ms)}`)
    .join(", ");
}

function cores(run: ImportRun): string {
  return (run.cpuSeconds / (run.ms / 1000)).toFixed(2);
}

function figures(f: ReadingFigures): string {
  return `${f.requests} requests, ${f.failed} failed, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, max ${f.maxMs.toFixed(1)} ms (${f.slowest})`;
}

async function checkpoint(databaseUrl: string): Promise<void> {
  await psql(databaseUrl, "checkpoint;").catch(() => undefined); // needs pg_checkpoint; a fair start, not a must
}

async function measureReaders(databaseUrl: string, companies: number) {
  const { identity, server } = await startServerWithIdentity({
    databaseUrl,
    peerIndex: "off",
    logFile: `${options.jsonFile.replace(/\.json$/, "")}.server.log`,
  });
  cleanups.push(
    () => identity.close(),
    () => server.stop(),
  );
  await server.ready(120_000);
  const narrow = (await withClient(databaseUrl, (client) => findClasses(client, AS_OF))).find(
    (c) => c.name === "narrow",
  )!;
  const benchmarkCall = operationNamed("POST assessment").call(narrow, baseVariant(narrow));
  const readers = startReaders(server.baseUrl, identity.token, options.readers, benchmarkCall, companies);
  await new Promise((resolve) => setTimeout(resolve, options.baselineSeconds * 1000));
  const before = readers.mark();
  await checkpoint(databaseUrl);
  const locks = startLockWatch(databaseUrl);
  const replace = await runImport(databaseUrl, ["--replace", options.dataDir]);
  // The server notices the new version within a second: reading goes on through that.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const during = await readers.stop();
  return { before, during, replace, locks: await locks.stop() };
}
