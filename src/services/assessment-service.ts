import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { distributionOf } from "../benchmark/distribution.js";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { readLossYears } from "../benchmark/loss-years.js";
import { readAmount, readPeerGroup, type PeerGroupInput } from "../benchmark/peer-group.js";
import { clientRpm, rpmFigures } from "../benchmark/rate-per-million.js";
import { timeWindow } from "../benchmark/time-window.js";
import { readTrailing } from "../benchmark/trailing-input.js";
import { decimalTexts } from "../rpc/decimal-texts.js";
import type { DisclosureGuard } from "./disclosure-guard.js";
import { assertCoverageReference, rejectInput, startValidation } from "./input-validation.js";

interface WindowedInput extends PeerGroupInput {
  oldestTrailing: number;
  newestTrailing: number;
  premium: number;
  limit: number;
}

/**
 * Distributions, rate per million and counts of a peer group (spec 4.1-4.4). Every
 * figure computed from peer programs passes the disclosure rule; the loss count does
 * not need to: loss events are public records.
 */
export function createAssessmentService(
  engine: PeerEngine,
  asOf: () => string,
  disclosure: DisclosureGuard,
): ServiceImpl<typeof AssessmentService> {
  /** The peer group, the window and the selected amounts of a request, or a 400 with every problem. */
  async function readWindowed(req: WindowedInput & { retention?: number }, ctx: HandlerContext) {
    const problems = startValidation(ctx, req);
    const text = decimalTexts(ctx);
    const peers = readPeerGroup(req, problems, text);
    const trailing = readTrailing(req.oldestTrailing, req.newestTrailing, problems);
    const amounts = {
      premium: readAmount("premium", req.premium, problems, text),
      limit: readAmount("limit", req.limit, problems, text),
      retention: readAmount("retention", req.retention, problems, text),
    };
    if (!peers || !trailing || !problems.empty) return rejectInput(engine, req, problems);
    return { peers, trailing, window: timeWindow(asOf(), trailing), amounts, problems };
  }

  async function assessment(req: WindowedInput & { retention: number }, ctx: HandlerContext, withCounts: boolean) {
    const { peers, trailing, window, amounts, problems } = await readWindowed(req, ctx);
    const stats = await engine.assessment(peers, window, amounts, { withLossCount: withCounts });
    assertCoverageReference(ctx, req, stats.reference, problems);
    const group = { peers, trailing };
    if (withCounts) await disclosure.check(ctx, "programs", stats.contributors?.programs, group);
    await disclosure.check(ctx, "limits", stats.contributors?.limit, group);
    await disclosure.check(ctx, "premiums", stats.contributors?.premium, group);
    await disclosure.check(ctx, "retentions", stats.contributors?.retention, group);
    return {
      totalProgramCount: BigInt(stats.totalProgramCount),
      totalLossCount: BigInt(stats.totalLossCount ?? 0),
      limitDistribution: distributionOf(LIMIT_BANDS, stats.limit.bandCounts, stats.limit.rank, amounts.limit),
      premiumDistribution: distributionOf(PREMIUM_BANDS, stats.premium.bandCounts, stats.premium.rank, amounts.premium),
      retentionDistribution: distributionOf(
        RETENTION_BANDS,
        stats.retention.bandCounts,
        stats.retention.rank,
        amounts.retention,
      ),
    };
  }

  return {
    getAssessmentData: (req, ctx) => assessment(req, ctx, true),

    async postAssessmentData(req, ctx) {
      const { limitDistribution, premiumDistribution, retentionDistribution } = await assessment(req, ctx, false);
      return { limitDistribution, premiumDistribution, retentionDistribution };
    },

    async getRpmDistributionData(req, ctx) {
      const { peers, trailing, window, amounts, problems } = await readWindowed(req, ctx);
      const clientBar = clientRpm(amounts.premium, amounts.limit);
      const stats = await engine.rpm(peers, window, clientBar);
      assertCoverageReference(ctx, req, stats.reference, problems);
      await disclosure.check(ctx, "rates per million", stats.contributors, { peers, trailing });
      return rpmFigures(stats, clientBar);
    },

    async getTotalProgramCount(req, ctx) {
      const { peers, trailing, window, problems } = await readWindowed(req, ctx);
      const { reference, count, contributors } = await engine.programCount(peers, window);
      assertCoverageReference(ctx, req, reference, problems);
      await disclosure.check(ctx, "programs", contributors, { peers, trailing });
      return { totalProgramCount: BigInt(count) };
    },

    async getTotalLossCount(req, ctx) {
      const problems = startValidation(ctx, req);
      const text = decimalTexts(ctx);
      const peers = readPeerGroup(req, problems, text);
      const years = readLossYears(req, problems);
      readAmount("premium", req.premium, problems, text);
      readAmount("limit", req.limit, problems, text);
      if (!peers || !years || !problems.empty) return rejectInput(engine, req, problems);
      const { reference, count } = await engine.lossCount(peers, years);
      assertCoverageReference(ctx, req, reference, problems);
      return { totalLossCount: BigInt(count) };
    },
  };
}
