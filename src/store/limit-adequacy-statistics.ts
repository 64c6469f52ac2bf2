import type { Knex } from "knex";
import { Decimal } from "../benchmark/decimal.js";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { CoverageReference, PeerGroup } from "../benchmark/peer-group.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";
import { quantileSql } from "./sql-fragments.js";

export interface LossCaseRow {
  lossEventId: bigint;
  lossAmount: Decimal;
}

export interface LimitAdequacyStatistics {
  reference: CoverageReference;
  /** The peer loss events, by amount then id (SEMANTICS.md section 9). */
  cases: LossCaseRow[];
  /** The median limit of the peer programs of `window`, rounded to whole dollars. */
  medianLimit: Decimal;
}

/** The cases and the median peer limit, in one statement. */
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
      knex.raw(`(select ${quantileSql("0.5", 0)} from limits) as median_limit`),
      ...coverageReferenceColumns(knex, peers.coverageId),
    ]);
  const ids = row.case_ids as string[];
  const amounts = row.case_amounts as string[];
  return {
    reference: toCoverageReference(row),
    cases: ids.map((id, i) => ({ lossEventId: BigInt(id), lossAmount: new Decimal(amounts[i]!) })),
    medianLimit: new Decimal(row.median_limit),
  };
}
