import os from "node:os";
import type pg from "pg";

export interface Machine {
  cores: number;
  cpu: string;
  memoryBytes: number;
  node: string;
  postgres: string;
}

/** What the figures were measured on. */
export async function describeMachine(client: pg.Client): Promise<Machine> {
  const { rows } = await client.query<{ version: string }>("select version()");
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryBytes: os.totalmem(),
    node: process.version,
    postgres: rows[0]?.version ?? "unknown",
  };
}
