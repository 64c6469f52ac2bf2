import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DisclosureRefusalSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import type { PeerGroupSuggestion } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import {
  disclosureRefusal,
  type DisclosureCondition,
  type DisclosureRule,
  type FigureName,
} from "../benchmark/disclosure-rule.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { Contributors } from "../benchmark/peer-statistics.js";
import { requestInfoKey } from "../load-control/request-info.js";

/** The group a figure was computed for, and its window as trailing months (after SEMANTICS.md section 2's defaults). */
export interface RefusedGroup {
  peers: PeerGroup;
  trailing: { oldest: number; newest: number };
}

/** The best wider group that would pass (SEMANTICS.md section 14), or undefined. */
export type SuggestWider = (group: RefusedGroup) => Promise<PeerGroupSuggestion | undefined>;

/** Applies the disclosure rule to the figures a service is about to answer. */
export interface DisclosureGuard {
  /**
   * Refuses the call (`failed_precondition`, the condition in a DisclosureRefusal
   * detail, with the best suggestion for `group` when one qualifies: issue 30) when the
   * programs behind `figure` break the rule. Each refusal is logged with the caller,
   * the condition and the request id, never the figures.
   */
  check(
    ctx: HandlerContext,
    figure: FigureName,
    contributors: Contributors | undefined,
    group: RefusedGroup,
  ): Promise<void>;
  /** Refusals since start, by condition (metrics). */
  refusals(): ReadonlyMap<DisclosureCondition, number>;
}

export function createDisclosureGuard(
  rule: DisclosureRule,
  log: Logger,
  suggest: SuggestWider = async () => undefined,
): DisclosureGuard {
  const refusals = new Map<DisclosureCondition, number>();
  return {
    refusals: () => refusals,
    async check(ctx, figure, contributors, group) {
      // Under none the engines count nothing: nothing to check, and nothing missing.
      if (rule.kind === "none") return;
      // Fail closed: an engine that did not count would answer unprotected.
      if (!contributors) throw new Error(`the peer engine did not count the contributors of ${figure}`);
      const refusal = disclosureRefusal(rule, figure, contributors);
      if (!refusal) return;
      const info = ctx.values.get(requestInfoKey);
      (info?.log ?? log).info(
        {
          disclosure: { condition: refusal.condition, threshold: refusal.threshold, figure },
          subject: info?.outcome.subject,
          clientId: info?.outcome.clientId,
          method: ctx.method.name,
        },
        "disclosure refusal",
      );
      refusals.set(refusal.condition, (refusals.get(refusal.condition) ?? 0) + 1);
      // Only now, on the refusal's path: answers that pass cost nothing more.
      const suggestion = await suggest(group);
      const detail = create(DisclosureRefusalSchema, {
        condition: refusal.condition,
        threshold: refusal.threshold,
        suggestion,
      });
      throw new ConnectError(refusal.message, Code.FailedPrecondition, undefined, [
        { desc: DisclosureRefusalSchema, value: detail },
      ]);
    },
  };
}
