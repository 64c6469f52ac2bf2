import type { Knex } from "knex";

/**
 * The references become deferrable (still checked at once by default). An import
 * defers them to its commit: its own checks hold the final state to every reference,
 * and a line of business may then move to another coverage before the programs and
 * losses that restate it are merged.
 */
const CONSTRAINTS = [
  ["lines_of_business", "lines_of_business_coverage_id_fkey"],
  ["programs", "programs_company_id_fkey"],
  ["programs", "programs_coverage_id_line_of_business_id_fkey"],
  ["loss_events", "loss_events_company_id_fkey"],
  ["loss_events", "loss_events_coverage_id_line_of_business_id_fkey"],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, constraint] of CONSTRAINTS) {
    await knex.raw(`alter table ${table} alter constraint ${constraint} deferrable initially immediate`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, constraint] of CONSTRAINTS) {
    await knex.raw(`alter table ${table} alter constraint ${constraint} not deferrable`);
  }
}
