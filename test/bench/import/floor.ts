import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { DATASET_FILES, type DatasetFile } from "../../../src/ingest/dataset-files.js";
import { foreignKeyReferencing, indexStatementFor, readTableDefinition } from "../../../src/ingest/table-definition.js";
import { withClient } from "../peer/bench-database.js";
import { machineBusySeconds } from "./machine-cpu.js";

/** A raw load's time, in all and by step (psql's own \timing of each statement). */
export interface FloorTiming {
  totalMs: number;
  /** CPU seconds the machine spent meanwhile (machine-cpu.ts). */
  cpuSeconds: number;
  copyMs: Record<string, number>;
  /** Everything after the copies: the primary keys (and, for the schema floor, every other index and the foreign keys). */
  afterCopyMs: number;
}

const FLOOR_SCHEMA = "cpb_bench_floor";
const SCHEMA_FLOOR_SCHEMA = "cpb_bench_schema";

/**
 * PostgreSQL's own raw load of the folder, the floor an import is compared with
 * (issue 13): psql `\copy` of each CSV file into a plain table of the same typed
 * columns in a scratch schema, then the primary keys. No checks, no other index, no
 * foreign key. The schema is dropped afterwards.
 */
export async function measureFloor(databaseUrl: string, dir: string): Promise<FloorTiming> {
  const tables = DATASET_FILES.map((spec) => ({
    spec,
    create: `create table ${FLOOR_SCHEMA}.${spec.table} (${spec.columns.map((c) => `${c.column} ${c.sqlType}`).join(", ")});`,
  }));
  const after = DATASET_FILES.map((spec) => `alter table ${FLOOR_SCHEMA}.${spec.table} add primary key (${spec.key});`);
  return timeLoad(databaseUrl, dir, FLOOR_SCHEMA, tables, after);
}

/**
 * What PostgreSQL alone needs to build everything an import builds: psql `\copy` of
 * each CSV file into a table of the stored one's own columns, checks and generated
 * columns, then, one statement at a time as psql runs them, every index and key of the
 * stored tables (read from the catalogs, as the import reads them), their foreign keys
 * and their statistics. No Node, no rule of DATA-FORMAT.md: the part of an import's
 * time that no import code can remove.
 */
export async function measureSchemaFloor(databaseUrl: string, dir: string): Promise<FloorTiming> {
  const tables = DATASET_FILES.map((spec) => ({
    spec,
    create: `create table ${SCHEMA_FLOOR_SCHEMA}.${spec.table} (like ${spec.table} including all excluding indexes);`,
  }));
  const after = await withClient(databaseUrl, (client) => schemaStatements(client));
  return timeLoad(databaseUrl, dir, SCHEMA_FLOOR_SCHEMA, tables, after);
}

/** Every index, key and foreign key of the stored tables, on their copies in the schema floor's schema, then analyze. */
async function schemaStatements(client: pg.Client): Promise<string[]> {
  // The import's own setting for its index builds (direct-load.ts).
  const statements: string[] = ["set maintenance_work_mem = '256MB';"];
  const keys: string[] = [];
  for (const spec of DATASET_FILES) {
    const table = `${SCHEMA_FLOOR_SCHEMA}.${spec.table}`;
    const definition = await readTableDefinition(client, spec.table);
    for (const index of definition.indexes) {
      statements.push(
        `${index.constraint ? `alter table ${table} add constraint ${index.name} ${index.definition}` : indexStatementFor(index, table)};`,
      );
    }
    for (const key of definition.foreignKeys) {
      keys.push(
        `alter table ${table} add constraint ${key.name} ${foreignKeyReferencing(key, `${SCHEMA_FLOOR_SCHEMA}.${key.references}`)};`,
      );
    }
    statements.push(`analyze ${table};`);
  }
  return [...statements, ...keys];
}

/** Creates the schema and tables, copies each file, runs `after`, all timed by psql in one session; drops the schema. */
async function timeLoad(
  databaseUrl: string,
  dir: string,
  schema: string,
  tables: { spec: DatasetFile; create: string }[],
  after: string[],
): Promise<FloorTiming> {
  const statements: string[] = [`drop schema if exists ${schema} cascade;`, `create schema ${schema};`];
  for (const { spec, create } of tables) {
    const file = path.join(dir, spec.file);
    const columns = await fileColumns(spec, file);
    statements.push(create);
    statements.push(
      `\\copy ${schema}.${spec.table} (${columns.join(", ")}) from '${file.replaceAll("'", "''")}' with (format csv, header true)`,
    );
  }
  statements.push(...after);
  await psql(databaseUrl, "checkpoint;").catch(() => undefined);
  const busyBefore = await machineBusySeconds();
  const started = performance.now();
  const output = await psql(databaseUrl, ["\\timing on", ...statements].join("\n"));
  const totalMs = performance.now() - started;
  const cpuSeconds = (await machineBusySeconds()) - busyBefore;
  await psql(databaseUrl, `drop schema ${schema} cascade;`);
  // One "Time:" line per statement, in order: two for the schema, then table and copy per file, then `after`.
  const times = [...output.matchAll(/^Time: ([\d.]+) ms/gm)].map((match) => Number(match[1]));
  const copyMs: Record<string, number> = {};
  tables.forEach(({ spec }, i) => (copyMs[spec.file] = times[3 + 2 * i] ?? Number.NaN));
  const afterCopyMs = times.slice(2 + 2 * tables.length).reduce((sum, ms) => sum + ms, 0);
  return { totalMs, cpuSeconds, copyMs, afterCopyMs };
}

/** The table columns of the file's header, in its order. */
async function fileColumns(spec: DatasetFile, file: string): Promise<string[]> {
  const header = await firstLine(file);
  const byHeader = new Map(spec.columns.map((column) => [column.header, column]));
  return header.split(",").map((name) => {
    const column = byHeader.get(name.trim().toLowerCase());
    if (!column) throw new Error(`${spec.file}: column ${name} is not in DATA-FORMAT.md`);
    return column.column;
  });
}

async function firstLine(file: string): Promise<string> {
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/)[0]!;
  } finally {
    await handle.close();
  }
}

/** Runs psql (PostgreSQL's client, on PATH) with the script on stdin; its output, or a rejection naming the failure. */
export function psql(databaseUrl: string, script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", databaseUrl], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.once("error", (error) =>
      reject(new Error(`psql could not run (${error.message}); the floor needs PostgreSQL's client on PATH`)),
    );
    child.once("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`psql exited with ${code}: ${errors.trim()}`)),
    );
    child.stdin.end(`${script}\n`);
  });
}
