import type { Knex } from "knex";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { assessmentStatistics } from "./assessment-statistics.js";
import { findCoverageReference } from "./coverage-reference.js";
import { limitAdequacyStatistics } from "./limit-adequacy-statistics.js";
import { lossExperienceStatistics } from "./loss-experience-statistics.js";
import { countPeerLosses, countPeerPrograms } from "./peer-counts.js";
import { rpmStatistics } from "./rpm-statistics.js";
import { trendStatistics } from "./trend-statistics.js";
import { wideningStatistics } from "./widening-statistics.js";

/**
 * The peer engine of PostgreSQL: every operation one statement, exact in numeric.
 * It is the reference the peer index is tested against, and the engine when the
 * data outgrows a server's memory (PEER_INDEX=off). Every answer carries the dataset
 * version its statement read (coverage-reference.ts).
 */
export function createSqlPeerEngine(knex: Knex, options: { contributors?: boolean } = {}): PeerEngine {
  // Who the programs came from, counted for the disclosure rule only when it is on.
  const counting = { contributors: options.contributors ?? false };
  return {
    coverageReference: (coverageId) => findCoverageReference(knex, coverageId),
    assessment: (peers, window, selected, options) =>
      assessmentStatistics(knex, peers, window, selected, { ...options, ...counting }),
    rpm: (peers, window, clientRpm) => rpmStatistics(knex, peers, window, clientRpm, counting),
    programCount: (peers, window) => countPeerPrograms(knex, peers, window, counting),
    lossCount: (peers, years) => countPeerLosses(knex, peers, years),
    limitAdequacy: (peers, years, window) => limitAdequacyStatistics(knex, peers, years, window, counting),
    trend: (peers, periods) => trendStatistics(knex, peers, periods, counting),
    lossExperience: (peers, span, limits) => lossExperienceStatistics(knex, peers, span, limits, counting),
    widenings: (space) => wideningStatistics(knex, space, counting),
  };
}
