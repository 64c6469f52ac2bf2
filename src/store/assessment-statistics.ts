import type { Knex } from "knex";
import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS, type BandScale } from "../benchmark/bands.js";
import type { SelectedAmounts } from "../benchmark/peer-engine.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { AmountStatistics, AssessmentStatistics } from "../benchmark/peer-statistics.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { contributorColumns, toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";
import { bandCountsSql } from "./sql-fragments.js";

const AMOUNTS: { key: "limit" | "premium" | "retention"; column: string; scale: BandScale }[] = [
  { key: "limit", column: "limit_amount", scale: LIMIT_BANDS },
  { key: "premium", column: "premium", scale: PREMIUM_BANDS },
  { key: "retention", column: "retention", scale: RETENTION_BANDS },
];

/**
 * Everything an assessment needs in one statement and one scan of the peer programs:
 * the program count, the three distributions and the three percentile-rank counts,
 * with FILTER aggregates (SEMANTICS.md sections 4, 6, 8); the loss count and the
 * coverage reference ride along as sub-selects.
 */
export async function assessmentStatistics(
  knex: Knex,
  peers: PeerGroup,
  window: TimeWindow,
  selected: SelectedAmounts,
  options: { withLossCount: boolean; contributors: boolean },
): Promise<AssessmentStatistics> {
  const columns: Knex.Raw[] = [knex.raw("count(*) as total_program_count")];
  for (const { key, column, scale } of AMOUNTS) {
    const bands = bandCountsSql(scale, column);
    const x = selected[key].toString();
    columns.push(
      knex.raw(`${bands.sql} as ${key}_bands`, bands.bindings),
      knex.raw(`count(*) filter (where ${column} < ?) as ${key}_below`, [x]),
      knex.raw(`count(*) filter (where ${column} = ?) as ${key}_equal`, [x]),
      knex.raw(`count(${column}) as ${key}_total`),
    );
  }
  if (options.withLossCount) {
    columns.push(knex.raw("(?) as total_loss_count", [peerLosses(knex, peers, { kind: "any" }).count("*")]));
  }
  const query = knex
    .with(
      "peers",
      peerPrograms(knex, peers, window).select(
        "p.limit_amount",
        "p.premium",
        "p.retention",
        ...(options.contributors ? ["p.company_id", "p.source"] : []),
      ),
    )
    .from("peers");
  if (options.contributors) {
    const masks = {
      programs: "true",
      limit: "limit_amount is not null",
      premium: "premium is not null",
      retention: "retention is not null",
    };
    columns.push(...contributorColumns(knex, query, "peers", masks));
  }
  const row = await query.first([...columns, ...coverageReferenceColumns(knex, peers.coverageId)]);

  const amount = (key: string): AmountStatistics => ({
    bandCounts: (row[`${key}_bands`] as string[]).map(Number),
    rank: {
      below: Number(row[`${key}_below`]),
      equal: Number(row[`${key}_equal`]),
      total: Number(row[`${key}_total`]),
    },
  });
  return {
    reference: toCoverageReference(row),
    totalProgramCount: Number(row.total_program_count),
    limit: amount("limit"),
    premium: amount("premium"),
    retention: amount("retention"),
    totalLossCount: options.withLossCount ? Number(row.total_loss_count) : undefined,
    ...(options.contributors && {
      contributors: {
        programs: toContributors(row.contributors_programs),
        limit: toContributors(row.contributors_limit),
        premium: toContributors(row.contributors_premium),
        retention: toContributors(row.contributors_retention),
      },
    }),
  };
}
