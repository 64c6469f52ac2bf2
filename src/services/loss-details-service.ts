import type { ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import type { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { findLossEvent } from "../store/loss-events.js";
import { assertLookupId, notFound } from "./identifier.js";
import { tellDatasetVersion } from "../rpc/dataset-version.js";
import type { DisclosureRule } from "../benchmark/disclosure-rule.js";
import type { DisclosureGuard } from "./disclosure-guard.js";
import { limitAdequacy } from "./limit-adequacy.js";
import { lossExperience } from "./loss-experience.js";

/** Loss details (spec 4.7), limit adequacy (4.8) and the loss experience (SEMANTICS.md section 15). */
export function createLossDetailsService(
  knex: Knex,
  engine: PeerEngine,
  asOf: () => string,
  disclosure: DisclosureGuard,
  /** The rule itself: the loss experience withholds years, never the call. */
  rule: DisclosureRule,
): ServiceImpl<typeof LossDetailsService> {
  return {
    getLimitAdequacy: (req, ctx) => limitAdequacy(engine, asOf(), req, ctx, disclosure),
    postLimitAdequacyData: (req, ctx) => limitAdequacy(engine, asOf(), req, ctx, disclosure),
    getLossExperience: (req, ctx) => lossExperience(engine, asOf(), req, ctx, rule),

    async getLossDetails(req, ctx) {
      assertLookupId(ctx, "loss event");
      const row = await findLossEvent(knex, req.lossEventId);
      if (!row) throw notFound("loss event", req.lossEventId);
      tellDatasetVersion(ctx, row.datasetVersion);
      return {
        lossDetail: {
          lossName: row.companyName,
          lossCategory: row.lossCategory,
          lossType: row.lossType,
          lossCoverage: row.coverageName,
          lossLob: row.lineOfBusinessName,
          accidentDate: row.accidentDate ?? undefined,
          filingDate: row.filingDate,
          status: row.status,
          totalAmount: BigInt(row.totalAmount),
          lossDetailsDescription: row.description ?? undefined,
        },
      };
    },
  };
}
