import type { Knex } from "knex";
import { CURATED_SOURCE } from "../benchmark/contributors.js";
import type { Contributors } from "../benchmark/peer-statistics.js";

const PARTNER = `source is distinct from '${CURATED_SOURCE}'`;

/**
 * The Contributors (peer-statistics.ts) of the rows of `from` (a CTE with company_id and
 * source), for each mask (a condition on its rows: which programs a figure rests on), in
 * the statement that computes the figures. Two scans of the rows whatever the masks: one
 * grouped by company, one by partner source, each counting every mask; the rest reads
 * those groups (as many as companies or sources, not programs), once for the totals and
 * once per mask for its two largest companies. Counted one scan per
 * mask, an assessment took twice as long at Advisen scale. No source (NULL or "") is one
 * partner source, as contributors.ts reads it. Only fixed names and conditions are
 * pasted in. Adds two CTEs to `query` and returns one int8[5] column per mask,
 * `contributors_<mask>`.
 */
export function contributorColumns(
  knex: Knex,
  query: Knex.QueryBuilder,
  from: string,
  masks: Record<string, string>,
): Knex.Raw[] {
  const names = Object.keys(masks);
  const counts = names.map((name) => `count(*) filter (where ${masks[name]}) as n_${name}`).join(", ");
  // Every mask's totals in one pass over the companies and one over the sources; only
  // the two largest companies take a pass (a top-2 sort) per mask.
  const totals = names.flatMap((name) => [
    `coalesce(sum(c.n_${name}), 0) as programs_${name}`,
    `count(*) filter (where c.n_${name} > 0) as companies_${name}`,
    `(select coalesce(sum(n_${name}), 0) from contributing_sources) as partner_${name}`,
    `(select coalesce(max(n_${name}), 0) from contributing_sources) as largest_source_${name}`,
  ]);
  query
    .with("contributing_companies", knex.raw(`select ${counts} from ${from} group by company_id`))
    .with(
      "contributing_sources",
      knex.raw(`select ${counts} from ${from} where ${PARTNER} group by coalesce(source, '')`),
    )
    .with("contributing_totals", knex.raw(`select ${totals.join(", ")} from contributing_companies as c`));
  return names.map((name) =>
    knex.raw(`(select array[
      programs_${name},
      companies_${name},
      (select coalesce(sum(n_${name}), 0) from (select n_${name} from contributing_companies order by n_${name} desc limit 2) as top_two),
      partner_${name},
      largest_source_${name}
    ] from contributing_totals) as contributors_${name}`),
  );
}

/** An int8[5] of contributorColumns, as pg returns it (text). */
export function toContributors(value: readonly string[]): Contributors {
  const [programs, companies, topTwoCompanyPrograms, partnerPrograms, largestSourcePrograms] = value.map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return { programs, companies, topTwoCompanyPrograms, partnerPrograms, largestSourcePrograms };
}
