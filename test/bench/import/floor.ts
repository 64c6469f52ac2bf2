import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import path from "node:path";
import { DATASET_FILES } from "../../../src/ingest/dataset-files.js";
import { machineBusySeconds } from "./machine-cpu.js";

/** The raw load's time, in all and by step (psql's own \timing of each statement). */
export interface FloorTiming {
  totalMs: number;
  /** CPU seconds the machine spent meanwhile (machine-cpu.ts). */
  cpuSeconds: number;
  copyMs: Record<string, number>;
  primaryKeysMs: number;
}

const SCHEMA = "cpb_bench_floor";

/**
 * PostgreSQL's own raw load of the folder, the floor an import is compared with
 * (issue 13): psql `\copy` of each CSV file into a plain table of the same typed
 * columns in a scratch schema, then the primary keys. No checks, no other index, no
 * foreign key. The schema is dropped afterwards.
 */
export async function measureFloor(databaseUrl: string, dir: string): Promise<FloorTiming> {
  const statements: string[] = [`drop schema if exists ${SCHEMA} cascade;`, `create schema ${SCHEMA};`];
  const copies: string[] = [];
  for (const spec of DATASET_FILES) {
    const file = path.join(dir, spec.file);
    const header = await firstLine(file);
    const byHeader = new Map(spec.columns.map((column) => [column.header, column]));
    const columns = header.split(",").map((name) => {
      const column = byHeader.get(name.trim().toLowerCase());
      if (!column) throw new Error(`${spec.file}: column ${name} is not in DATA-FORMAT.md`);
      return column;
    });
    statements.push(`create table ${SCHEMA}.${spec.table} (${spec.columns.map((c) => `${c.column} ${c.sqlType}`).join(", ")});`);
    copies.push(spec.file);
    statements.push(`\\copy ${SCHEMA}.${spec.table} (${columns.map((c) => c.column).join(", ")}) from '${file.replaceAll("'", "''")}' with (format csv, header true)`);
  }
  for (const spec of DATASET_FILES) statements.push(`alter table ${SCHEMA}.${spec.table} add primary key (${spec.key});`);
  await psql(databaseUrl, "checkpoint;").catch(() => undefined);
  const busyBefore = await machineBusySeconds();
  const started = performance.now();
  const output = await psql(databaseUrl, ["\\timing on", ...statements].join("\n"));
  const totalMs = performance.now() - started;
  const cpuSeconds = (await machineBusySeconds()) - busyBefore;
  await psql(databaseUrl, `drop schema ${SCHEMA} cascade;`);
  // One "Time:" line per statement, in order: two for the schema, then table and copy per file, then the keys.
  const times = [...output.matchAll(/^Time: ([\d.]+) ms/gm)].map((match) => Number(match[1]));
  const copyMs: Record<string, number> = {};
  copies.forEach((file, i) => (copyMs[file] = times[3 + 2 * i] ?? Number.NaN));
  const primaryKeysMs = times.slice(2 + 2 * copies.length).reduce((sum, ms) => sum + ms, 0);
  return { totalMs, cpuSeconds, copyMs, primaryKeysMs };
}

async function firstLine(file: string): Promise<string> {
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "").split(/\r?\n/)[0]!;
  } finally {
    await handle.close();
  }
}

/** Runs psql (PostgreSQL's client, on PATH) with the script on stdin; its output, or a rejection naming the failure. */
export function psql(databaseUrl: string, script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", databaseUrl], { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.once("error", (error) => reject(new Error(`psql could not run (${error.message}); the floor needs PostgreSQL's client on PATH`)));
    child.once("close", (code) => (code === 0 ? resolve(output) : reject(new Error(`psql exited with ${code}: ${errors.trim()}`))));
    child.stdin.end(`${script}\n`);
  });
}
