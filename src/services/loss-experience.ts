import type { HandlerContext } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  GetLossExperienceRequest,
  GetLossExperienceResponseSchema,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { lossExperienceAnswer, type LossExperienceFiguresAnswer } from "../benchmark/loss-experience.js";
import { lossExperienceSpan, readLossExperienceAsk } from "../benchmark/loss-experience-inputs.js";
import type { DisclosureRule } from "../benchmark/disclosure-rule.js";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { readPeerGroup } from "../benchmark/peer-group.js";
import { decimalItemTexts, decimalTexts } from "../rpc/decimal-texts.js";
import { assertCoverageReference, rejectInput, startValidation } from "./input-validation.js";

/**
 * The loss experience (SEMANTICS.md section 15): the peer group read as the market trend
 * reads it (section 11, the same 400s), the years and the limits, and the figures of
 * each year and of all of them. Under the disclosure rule a year's program figures are
 * withheld, never the request: the rule is applied per year (loss-experience.ts), as the
 * market trend applies it per period, not by the guard, which refuses whole calls.
 */
export async function lossExperience(
  engine: PeerEngine,
  asOf: string,
  req: GetLossExperienceRequest,
  ctx: HandlerContext,
  rule: DisclosureRule,
): Promise<MessageInitShape<typeof GetLossExperienceResponseSchema>> {
  const problems = startValidation(ctx, req);
  const peers = readPeerGroup(req, problems, decimalTexts(ctx));
  const asked = readLossExperienceAsk(req, problems, decimalItemTexts(ctx, "limits"));
  if (!peers || !asked || !problems.empty) return rejectInput(engine, req, problems);
  const span = lossExperienceSpan(asOf, asked.years);
  const statistics = await engine.lossExperience(peers, span, asked.limits);
  assertCoverageReference(ctx, req, statistics.reference, problems);
  const { years, total } = lossExperienceAnswer(span, asked.limits, statistics, rule);
  return { years: years.map(withInt64Counts), total: withInt64Counts(total) };
}

/** A year or the total with its counts as int64; unset optional fields are the answer's nulls (json-writer.ts). */
function withInt64Counts<T extends LossExperienceFiguresAnswer>(figures: T) {
  const { programCount, lossCount, paidLossCount, severity, exceeding, ...rest } = figures;
  return {
    ...rest,
    programCount: programCount === undefined ? undefined : BigInt(programCount),
    lossCount: BigInt(lossCount),
    paidLossCount: BigInt(paidLossCount),
    severity: severity && { ...severity, max: BigInt(severity.max) },
    exceeding: exceeding.map(({ count, ...entry }) => ({ ...entry, count: BigInt(count) })),
  };
}
