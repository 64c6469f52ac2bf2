import type { Knex } from "knex";
import { roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { LimitAdequacyStatistics } from "../benchmark/peer-statistics.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { inTurn } from "../load-control/turns.js";
import { caseBytesSql, readCaseBytes } from "./case-bytes.js";
import { contributorColumns, toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";
import { quantileNeighboursSql, quantileOf } from "./sql-fragments.js";

/** The cases (by amount, then id) and the median peer limit, in one statement. */
export async function limitAdequacyStatistics(
  knex: Knex,
  peers: PeerGroup,
  years: LossYearFilter,
  window: TimeWindow,
  options: { contributors: boolean },
): Promise<LimitAdequacyStatistics> {
  // The programs with a limit are read once: the median and, under a disclosure rule, who they came from.
  const who = options.contributors ? ["p.company_id", "p.source"] : [];
  const query = knex
    .with("cases", peerLosses(knex, peers, years).select("l.loss_event_id as id", "l.total_amount as amount"))
    .with(
      "limited",
      peerPrograms(knex, peers, window)
        .whereNotNull("p.limit_amount")
        .select("p.limit_amount", ...who),
    )
    .with("limits", (q) =>
      q
        .from("limited")
        .select(knex.raw("array_agg(limit_amount order by limit_amount) as s"), knex.raw("count(*) as n")),
    )
    .first([
      knex.raw(`(select ${caseBytesSql("id", "amount", "amount, id")} from cases) as case_bytes`),
      knex.raw(`(select ${quantileNeighboursSql("0.5")} from limits) as median_neighbours`),
      knex.raw("(select n from limits) as limit_count"),
      ...coverageReferenceColumns(knex, peers.coverageId),
    ]);
  if (options.contributors) query.select(contributorColumns(knex, query, "limited", { limited: "true" }));
  const row = await query;
  // In a turn: the cases, and the answer the caller builds from them, are 10^5 long.
  return inTurn(() => ({
    reference: toCoverageReference(row),
    cases: readCaseBytes(row.case_bytes as Buffer),
    medianLimit: roundHalfAwayFromZero(quantileOf(Number(row.limit_count), "0.5", row.median_neighbours), 0),
    ...(options.contributors && { contributors: toContributors(row.contributors_limited) }),
  }));
}
