import type { Knex } from "knex";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { PeerCount } from "../benchmark/peer-statistics.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { contributorColumns, toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";

/** The number of peer programs in the window (SEMANTICS.md section 8), with the coverage reference. */
export async function countPeerPrograms(
  knex: Knex,
  peers: PeerGroup,
  window: TimeWindow,
  options: { contributors: boolean },
): Promise<PeerCount> {
  if (!options.contributors) return countOf(knex, peerPrograms(knex, peers, window), peers.coverageId);
  // With who they came from, in the same statement.
  const query = knex.with("peers", peerPrograms(knex, peers, window).select("p.company_id", "p.source"));
  const row = await query.first([
    ...contributorColumns(knex, query, "peers", { programs: "true" }),
    ...coverageReferenceColumns(knex, peers.coverageId),
  ]);
  const contributors = toContributors(row.contributors_programs);
  return { reference: toCoverageReference(row), count: contributors.programs, contributors };
}

/** The number of peer loss events passing the loss-year filter, with the coverage reference. */
export async function countPeerLosses(knex: Knex, peers: PeerGroup, years: LossYearFilter): Promise<PeerCount> {
  return countOf(knex, peerLosses(knex, peers, years), peers.coverageId);
}

async function countOf(knex: Knex, rows: Knex.QueryBuilder, coverageId: number) {
  const row = await knex.first([
    knex.raw("(?) as count", [rows.count("*")]),
    ...coverageReferenceColumns(knex, coverageId),
  ]);
  return { reference: toCoverageReference(row), count: Number(row.count) };
}
