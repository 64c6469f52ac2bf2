import type { Knex } from "knex";
import { generateDataset } from "../../src/ingest/generate/generate-dataset.js";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { createTestDatabase } from "./database.js";

/** A peer group of every sector of coverage 1: its answers depend on every program. */
export const EVERY_SECTOR_GROUP = {
  naics: Array.from({ length: 90 }, (_, i) => String(i + 10)),
  coverageId: 1,
  lineOfBusinessId: [0],
  exposureType: "Revenues",
  exposureRangeLow: 0,
  exposureRangeHigh: 1e15,
};

/**
 * A test database holding a generated data set (seed `${name}-a`), with a second one
 * (`${name}-b`) generated beside it: `importNext` replaces the first with it, the
 * import a test watches the servers through.
 */
export async function databaseWithNextImport(
  t: { teardown(fn: () => unknown): void },
  name: string,
  generation: { companies: number; programs: number; losses: number; asOf: string },
): Promise<{ knex: Knex; url: string; importNext: () => Promise<unknown> }> {
  const { knex, url } = await createTestDatabase(t);
  const dir = await createTempDir(t, `cpb-${name}-`);
  await generateDataset(`${dir}/a`, { ...generation, seed: `${name}-a` });
  await generateDataset(`${dir}/b`, { ...generation, seed: `${name}-b` });
  await importDataset(knex, `${dir}/a`);
  return { knex, url, importNext: () => importDataset(knex, `${dir}/b`, { replace: true }) };
}
