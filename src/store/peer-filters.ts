import type { Knex } from "knex";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { TimeWindow } from "../benchmark/time-window.js";

/**
 * The WHERE clauses of a peer group (SEMANTICS.md section 1), as Knex bindings.
 * Queries alias companies `c`, programs `p` and loss events `l`.
 */

/** The company matches: NAICS prefix, exposure known and in range, organization type. */
export function whereCompanyMatches(query: Knex.QueryBuilder, peers: PeerGroup): void {
  query.where((naics) => {
    if (peers.naics2.length) naics.orWhereIn("c.naics2", peers.naics2);
    if (peers.naics3.length) naics.orWhereIn("c.naics3", peers.naics3);
  });
  query.whereBetween(`c.${peers.exposure}`, [peers.exposureLow.toString(), peers.exposureHigh.toString()]);
  if (peers.organizationTypes.length) query.whereIn("c.organization_type", peers.organizationTypes);
}

/** The program is of the peer group's coverage and lines of business, in the window. */
export function whereProgramMatches(query: Knex.QueryBuilder, peers: PeerGroup, window: TimeWindow): void {
  query.where("p.coverage_id", peers.coverageId);
  if (peers.lineOfBusinessIds.length) query.whereIn("p.line_of_business_id", peers.lineOfBusinessIds);
  query.where("p.effective_date", ">", window.start).andWhere("p.effective_date", "<=", window.end);
  whereCompanyMatches(query, peers);
}

/** The loss event is of the peer group's coverage and lines of business, and passes the loss years. */
export function whereLossMatches(query: Knex.QueryBuilder, peers: PeerGroup, years: LossYearFilter): void {
  query.where("l.coverage_id", peers.coverageId);
  if (peers.lineOfBusinessIds.length) query.whereIn("l.line_of_business_id", peers.lineOfBusinessIds);
  if (years.kind === "exact") query.where("l.loss_year", years.year);
  if (years.kind === "range" && years.oldest !== undefined) query.where("l.loss_year", ">=", years.oldest);
  if (years.kind === "range" && years.newest !== undefined) query.where("l.loss_year", "<=", years.newest);
  whereCompanyMatches(query, peers);
}

/** Peer programs: programs joined to their companies, filtered. */
export function peerPrograms(knex: Knex, peers: PeerGroup, window: TimeWindow): Knex.QueryBuilder {
  return knex("programs as p").join("companies as c", "c.company_id", "p.company_id").modify(whereProgramMatches, peers, window);
}

/** Peer loss events: loss events joined to their companies, filtered. */
export function peerLosses(knex: Knex, peers: PeerGroup, years: LossYearFilter): Knex.QueryBuilder {
  return knex("loss_events as l").join("companies as c", "c.company_id", "l.company_id").modify(whereLossMatches, peers, years);
}

