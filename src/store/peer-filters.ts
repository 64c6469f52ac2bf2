import type { Knex } from "knex";
import { Decimal } from "../benchmark/decimal.js";
import type { LossYearFilter } from "../benchmark/loss-years.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { TimeWindow } from "../benchmark/time-window.js";

/**
 * The WHERE clauses of a peer group (SEMANTICS.md section 1), as Knex bindings.
 * Queries alias companies `c`, programs `p` and loss events `l`.
 */

/** The company matches: NAICS prefix, exposure known and in range, organization type. */
function whereCompanyMatches(query: Knex.QueryBuilder, peers: PeerGroup): void {
  query.where((naics) => {
    if (peers.naics2.length) naics.orWhereIn("c.naics2", peers.naics2);
    if (peers.naics3.length) naics.orWhereIn("c.naics3", peers.naics3);
  });
  query.whereBetween(`c.${peers.exposure}`, exposureBounds(peers));
  if (peers.organizationTypes.length) query.whereIn("c.organization_type", peers.organizationTypes);
}

/**
 * The exposure bounds as bindings. Employees are whole numbers up to 2^53 - 1 (a bigint
 * column): the same range in whole numbers within bigint, so the bounds bind as
 * integers and the index serves.
 */
export function exposureBounds(peers: Pick<PeerGroup, "exposure" | "exposureLow" | "exposureHigh">): [string, string] {
  const [low, high] =
    peers.exposure === "employees"
      ? [Decimal.min(peers.exposureLow.ceil(), 2 ** 53), Decimal.min(peers.exposureHigh.floor(), 2 ** 53)]
      : [peers.exposureLow, peers.exposureHigh];
  return [low.toFixed(), high.toFixed()];
}

/** The program is of the peer group's coverage and lines of business, in the window. */
function whereProgramMatches(query: Knex.QueryBuilder, peers: PeerGroup, window: TimeWindow): void {
  query.where("p.coverage_id", peers.coverageId);
  if (peers.lineOfBusinessIds.length) query.whereIn("p.line_of_business_id", peers.lineOfBusinessIds);
  query.where("p.effective_date", ">", window.start).andWhere("p.effective_date", "<=", window.end);
  whereCompanyMatches(query, peers);
}

/** The loss event is of the peer group's coverage and lines of business, and passes the loss years. */
function whereLossMatches(query: Knex.QueryBuilder, peers: PeerGroup, years: LossYearFilter): void {
  query.where("l.coverage_id", peers.coverageId);
  if (peers.lineOfBusinessIds.length) query.whereIn("l.line_of_business_id", peers.lineOfBusinessIds);
  if (years.kind === "exact") query.where("l.loss_year", years.year);
  if (years.kind === "range" && years.oldest !== undefined) query.where("l.loss_year", ">=", years.oldest);
  if (years.kind === "range" && years.newest !== undefined) query.where("l.loss_year", "<=", years.newest);
  whereCompanyMatches(query, peers);
}

/** Peer programs: programs joined to their companies, filtered. */
export function peerPrograms(knex: Knex, peers: PeerGroup, window: TimeWindow): Knex.QueryBuilder {
  return knex("programs as p")
    .join("companies as c", "c.company_id", "p.company_id")
    .modify(whereProgramMatches, peers, window);
}

/** Peer loss events: loss events joined to their companies, filtered. */
export function peerLosses(knex: Knex, peers: PeerGroup, years: LossYearFilter): Knex.QueryBuilder {
  return knex("loss_events as l")
    .join("companies as c", "c.company_id", "l.company_id")
    .modify(whereLossMatches, peers, years);
}
