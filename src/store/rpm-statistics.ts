import type { Knex } from "knex";
import { Decimal, roundHalfAwayFromZero } from "../benchmark/decimal.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { RpmStatistics } from "../benchmark/peer-statistics.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { contributorColumns, toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerPrograms } from "./peer-filters.js";
import { quantileNeighboursSql, quantileOf, RPM_SQL } from "./sql-fragments.js";

/**
 * RPM figures of the peer programs with a premium and a positive limit (SEMANTICS.md
 * section 7), each RPM rounded to cents before any statistic; quartiles rounded to
 * cents. One statement.
 */
export async function rpmStatistics(
  knex: Knex,
  peers: PeerGroup,
  window: TimeWindow,
  clientRpm: Decimal,
  options: { contributors: boolean },
): Promise<RpmStatistics> {
  const who = options.contributors ? ["company_id", "source"] : [];
  const query = knex
    .with("peers", peerPrograms(knex, peers, window).select("p.limit_amount", "p.premium", ...who.map((c) => `p.${c}`)))
    .with("rpms", (q) =>
      q
        .from("peers")
        .whereNotNull("premium")
        .where("limit_amount", ">", 0)
        .select(knex.raw(`${RPM_SQL} as rpm`), ...who),
    )
    .with("sorted", (q) =>
      q
        .from("rpms")
        .select(
          knex.raw("array_agg(rpm order by rpm) as s"),
          knex.raw("count(*) as n"),
          knex.raw("coalesce(max(rpm), 0) as max_rpm"),
          knex.raw("count(*) filter (where rpm < ?) as below", [clientRpm.toString()]),
          knex.raw("count(*) filter (where rpm = ?) as equal", [clientRpm.toString()]),
        ),
    )
    .from("sorted")
    .first([
      "n",
      "max_rpm",
      "below",
      "equal",
      knex.raw(`${quantileNeighboursSql("0.25")} as first_quartile`),
      knex.raw(`${quantileNeighboursSql("0.5")} as median`),
      knex.raw(`${quantileNeighboursSql("0.75")} as fourth_quartile`),
      ...coverageReferenceColumns(knex, peers.coverageId),
    ]);
  if (options.contributors) query.select(contributorColumns(knex, query, "rpms", { rpms: "true" }));
  const row = await query;
  const n = Number(row.n);
  const quartile = (p: "0.25" | "0.5" | "0.75", column: string) =>
    roundHalfAwayFromZero(quantileOf(n, p, row[column]), 2);
  return {
    reference: toCoverageReference(row),
    firstQuartile: quartile("0.25", "first_quartile"),
    median: quartile("0.5", "median"),
    fourthQuartile: quartile("0.75", "fourth_quartile"),
    maxRpm: new Decimal(row.max_rpm),
    rank: { below: Number(row.below), equal: Number(row.equal), total: n },
    ...(options.contributors && { contributors: toContributors(row.contributors_rpms) }),
  };
}
