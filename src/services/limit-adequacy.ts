import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  LimitAdequacySchema,
  LossCaseSchema,
  type LossCase,
} from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import type { LossCases } from "../benchmark/peer-statistics.js";
import { limitAdequacyFigures } from "../benchmark/limit-adequacy.js";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { readLossYears, type LossYearFilter } from "../benchmark/loss-years.js";
import { readAmount, readPeerGroup, type PeerGroupInput } from "../benchmark/peer-group.js";
import { DEFAULT_TRAILING, timeWindow } from "../benchmark/time-window.js";
import { answersInBinary } from "../rpc/answer-codec.js";
import { decimalTexts } from "../rpc/decimal-texts.js";
import { setRenderedList } from "../rpc/rendered-lists.js";
import type { DisclosureGuard } from "./disclosure-guard.js";
import { assertCoverageReference, rejectInput, startValidation } from "./input-validation.js";

export interface LimitAdequacyInput extends PeerGroupInput {
  clientLimit?: number;
  limit: number;
  lossYear?: number;
  oldestLossYear?: number;
  newestLossYear?: number;
}

/**
 * Limit adequacy (SEMANTICS.md section 9) for both forms: the GET form has no
 * loss-year inputs, so it applies no loss-year filter. No trailing inputs: the
 * median limit always uses the default window. The cases go out as the peer index
 * rendered them when it did and the answer's codec allows (rendered-lists.ts), else
 * as messages.
 */
export async function limitAdequacy(
  engine: PeerEngine,
  asOf: string,
  req: LimitAdequacyInput,
  ctx: HandlerContext,
  disclosure: DisclosureGuard,
) {
  const problems = startValidation(ctx, req);
  const text = decimalTexts(ctx);
  const peers = readPeerGroup(req, problems, text);
  const years: LossYearFilter | undefined = "lossYear" in req ? readLossYears(req, problems) : { kind: "any" };
  // clientLimit when given (0 included), else limit, else 0.
  const clientLimit =
    req.clientLimit !== undefined
      ? readAmount("clientLimit", req.clientLimit, problems, text)
      : readAmount("limit", req.limit, problems, text);
  if (req.clientLimit !== undefined) readAmount("limit", req.limit, problems, text);
  if (!peers || !years || !problems.empty) return rejectInput(engine, req, problems);

  const stats = await engine.limitAdequacy(peers, years, timeWindow(asOf, DEFAULT_TRAILING));
  assertCoverageReference(ctx, req, stats.reference, problems);
  // The cases are public records; the median peer limit is not. It is part of every
  // answer, so a group that breaks the rule is refused whole rather than answered without it.
  await disclosure.check(ctx, "limits", stats.contributors, { peers, trailing: DEFAULT_TRAILING });
  const figures = limitAdequacyFigures(clientLimit, stats.medianLimit, stats.cases);
  const { rendered } = stats.cases;
  if (rendered && answersInBinary(ctx)) {
    const answer = create(LimitAdequacySchema, figures);
    setRenderedList(ctx, answer, LimitAdequacySchema.field.listOfCases, rendered);
    return { limitAdequacy: answer };
  }
  return { limitAdequacy: create(LimitAdequacySchema, { ...figures, listOfCases: lossCaseMessages(stats.cases) }) };
}

/**
 * The cases as LossCase messages, made directly: an answer may list tens of thousands,
 * and a message made field by field from a plain object costs several times more.
 */
function lossCaseMessages({ ids, amounts }: LossCases): LossCase[] {
  const messages = new Array<LossCase>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    messages[i] = { $typeName: LossCaseSchema.typeName, lossEventId: BigInt(ids[i]!), lossAmount: amounts[i]! };
  }
  return messages;
}
