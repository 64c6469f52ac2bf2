import type { Knex } from "knex";

/**
 * Where an import builds the tables it replaces (src/ingest/import-scratch.ts): beside
 * the stored ones, with their final names, until the import's transaction moves them
 * in. Nothing here is ever read by the service.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("create schema cpb_import");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop schema cpb_import cascade");
}
