import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { databaseName, dropDatabase, recreateDatabase } from "../peer/bench-database.js";
import { machineBusySeconds } from "./machine-cpu.js";

const run = promisify(execFile);

/** pg_restore's time to rebuild the imported database from its dump. */
export interface RestoreTiming {
  totalMs: number;
  /** CPU seconds the machine spent meanwhile (machine-cpu.ts). */
  cpuSeconds: number;
  /** The dump's size on disk, for the record. */
  dumpBytes: number;
}

/**
 * The yardstick of issue 31: `pg_restore --jobs=2` of a dump of the database the import
 * built, into a new database. The same tables, the same indexes, keys and references,
 * loaded and built by PostgreSQL's own tools with two jobs: no CSV to read, no rule of
 * DATA-FORMAT.md. The dump (directory format, which parallel restores need) is not
 * timed; the restored database and the dump are removed afterwards. pg_dump and
 * pg_restore must be of the server's major version (they refuse a newer server).
 */
export async function measureRestoreFloor(databaseUrl: string): Promise<RestoreTiming> {
  const dumpDir = path.join(await mkdtemp(path.join(tmpdir(), "cpb-restore-")), "dump");
  const target = new URL(databaseUrl);
  target.pathname = `/${databaseName(databaseUrl)}_restore`;
  try {
    await run("pg_dump", ["--format=directory", "--jobs=2", `--file=${dumpDir}`, databaseUrl]);
    const { stdout } = await run("du", ["-sb", dumpDir]);
    await recreateDatabase(target.href);
    const busyBefore = await machineBusySeconds();
    const started = performance.now();
    await run("pg_restore", ["--jobs=2", "--no-owner", `--dbname=${target.href}`, dumpDir]);
    const totalMs = performance.now() - started;
    return { totalMs, cpuSeconds: (await machineBusySeconds()) - busyBefore, dumpBytes: Number(stdout.split(/\s/)[0]) };
  } finally {
    await dropDatabase(target.href);
    await rm(path.dirname(dumpDir), { recursive: true, force: true });
  }
}
