import type { Knex } from "knex";
import { Decimal } from "../benchmark/decimal.js";
import type { CoverageReference, PeerGroup } from "../benchmark/peer-group.js";
import type { RankCounts } from "../benchmark/percentile-rank.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerPrograms } from "./peer-filters.js";
import { quantileSql, RPM_SQL } from "./sql-fragments.js";

export interface RpmStatistics {
  reference: CoverageReference;
  firstQuartile: Decimal;
  median: Decimal;
  fourthQuartile: Decimal;
  maxRpm: Decimal;
  /** Where the client's RPM stands among the peer RPMs. */
  rank: RankCounts;
}

/**
 * RPM figures of the peer programs with a premium and a positive limit (SEMANTICS.md
 * section 7), each RPM rounded to cents before any statistic; quartiles rounded to
 * cents. One statement.
 */
export async function rpmStatistics(knex: Knex, peers: PeerGroup, window: TimeWindow, clientRpm: Decimal): Promise<RpmStatistics> {
  const row = await knex
    .with("peers", peerPrograms(knex, peers, window).select("p.limit_amount", "p.premium"))
    .with("rpms", (q) => q.from("peers").whereNotNull("premium").where("limit_amount", ">", 0).select(knex.raw(`${RPM_SQL} as rpm`)))
    .with("sorted", (q) =>
      q.from("rpms").select(
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
      knex.raw(`${quantileSql("0.25", 2)} as first_quartile`),
      knex.raw(`${quantileSql("0.5", 2)} as median`),
      knex.raw(`${quantileSql("0.75", 2)} as fourth_quartile`),
      ...coverageReferenceColumns(knex, peers.coverageId),
    ]);
  return {
    reference: toCoverageReference(row),
    firstQuartile: new Decimal(row.first_quartile),
    median: new Decimal(row.median),
    fourthQuartile: new Decimal(row.fourth_quartile),
    maxRpm: new Decimal(row.max_rpm),
    rank: { below: Number(row.below), equal: Number(row.equal), total: Number(row.n) },
  };
}
