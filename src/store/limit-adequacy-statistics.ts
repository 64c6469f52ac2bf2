import type { Knex } from "knex";
import { roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { LimitAdequacyStatistics } from "../benchmark/peer-statistics.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";
import { quantileNeighboursSql, quantileOf } from "./sql-fragments.js";

/** The cases (by amount, then id) and the median peer limit, in one statement. */
export async function limitAdequacyStatistics(
  knex: Knex,
  peers: PeerGroup,
  years: LossYearFilter,
  window: TimeWindow,
): Promise<LimitAdequacyStatistics> {
  const row = await knex
    .with("cases", peerLosses(knex, peers, years).select("l.loss_event_id as id", "l.total_amount as amount"))
    .with("limits", peerPrograms(knex, peers, window)
      .whereNotNull("p.limit_amount")
      .select(knex.raw("array_agg(p.limit_amount order by p.limit_amount) as s"), knex.raw("count(*) as n")))
    .first([
      knex.raw("(select coalesce(array_agg(id order by amount, id), '{}') from cases) as case_ids"),
      knex.raw("(select coalesce(array_agg(amount order by amount, id), '{}') from cases) as case_amounts"),
      knex.raw(`(select ${quantileNeighboursSql("0.5")} from limits) as median_neighbours`),
      knex.raw("(select n from limits) as limit_count"),
      ...coverageReferenceColumns(knex, peers.coverageId),
    ]);
  // Loss ids and amounts are bigint columns of at most 2^53 - 1: exact as numbers.
  return {
    reference: toCoverageReference(row),
    cases: { ids: (row.case_ids as string[]).map(Number), amounts: (row.case_amounts as string[]).map(Number) },
    medianLimit: roundHalfAwayFromZero(quantileOf(Number(row.limit_count), "0.5", row.median_neighbours), 0),
  };
}
