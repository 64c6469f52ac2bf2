import type { Knex } from "knex";
import { pino } from "pino";
import { createPeerIndex, type PeerIndex } from "../../src/peer-index/peer-index.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The two engines every analytics test runs against: PostgreSQL and the peer index. */
export const ENGINES = ["sql", "index"] as const;
export type EngineName = (typeof ENGINES)[number];

/**
 * A real peer index over the database, built from its current dataset version; it
 * resolves once the snapshot is in. Later versions reach it through `datasetChanged`.
 */
export async function startPeerIndex(t: Teardown, knex: Knex, databaseUrl: string): Promise<PeerIndex> {
  const index = createPeerIndex({ connectionString: databaseUrl, log: pino({ level: "silent" }) });
  t.teardown(() => index.stop());
  const row = await knex("dataset_version").first<{ version: string }>(knex.raw("version::text as version"));
  index.datasetChanged(Number(row!.version));
  await waitFor(() => index.ready(), "the first peer index snapshot");
  return index;
}

/** Polls until `condition` holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
