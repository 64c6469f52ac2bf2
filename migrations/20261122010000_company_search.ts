import type { Knex } from "knex";

/**
 * Indexes for company search (SEMANTICS.md section 10) on a directory of hundreds of
 * thousands of companies:
 * - lower(name) COLLATE "C" with the id: the default order (case-insensitive, by code
 *   point, ties by id) and comparisons on names, read in index order for paging;
 * - lower(name) text_pattern_ops (the first migration's): startswith as a prefix LIKE,
 *   whatever the database's collation;
 * - a pg_trgm GIN index on lower(name): contains and endswith;
 * - organization type with the id: ordering by type.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create extension if not exists pg_trgm;
    create index companies_name_order on companies (lower(company_name) collate "C", company_id);
    create index companies_name_trigram on companies using gin (lower(company_name) gin_trgm_ops);
    create index companies_type_order on companies (organization_type collate "C", company_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index companies_type_order;
    drop index companies_name_trigram;
    drop index companies_name_order;
  `);
}
