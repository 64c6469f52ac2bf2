import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  PeerGroupSuggestionSchema,
  type PeerGroupService,
  type PeerGroupSuggestion,
} from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import type { DisclosureRule } from "../benchmark/disclosure-rule.js";
import type { FieldProblems } from "../benchmark/field-problems.js";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { readPeerGroup } from "../benchmark/peer-group.js";
import {
  MAX_SUGGESTIONS,
  MIN_PROGRAMS,
  suggestedPeerGroup,
  suggestPeerGroups,
  type Suggestion,
  type SuggestionBounds,
} from "../benchmark/peer-group-suggestions.js";
import { wideningSpace, type WideningSpace } from "../benchmark/peer-group-widening.js";
import { readTrailing } from "../benchmark/trailing-input.js";
import { decimalTexts } from "../rpc/decimal-texts.js";
import type { RefusedGroup } from "./disclosure-guard.js";
import { assertCoverageReference, rejectInput, startValidation } from "./input-validation.js";

/**
 * Peer-group suggestions (SEMANTICS.md section 14): the requested group's counts and
 * the closest wider groups that qualify, counted by the engine from one scan.
 */
export function createPeerGroupService(
  engine: PeerEngine,
  asOf: () => string,
  rule: DisclosureRule,
): ServiceImpl<typeof PeerGroupService> {
  return {
    async suggestPeerGroups(req, ctx: HandlerContext) {
      const problems = startValidation(ctx, req);
      const peers = readPeerGroup(req, problems, decimalTexts(ctx));
      const trailing = readTrailing(req.oldestTrailing, req.newestTrailing, problems);
      const bounds: SuggestionBounds = {
        minPrograms: readBound("minPrograms", req.minPrograms, MIN_PROGRAMS, problems),
        maxSuggestions: readBound("maxSuggestions", req.maxSuggestions, MAX_SUGGESTIONS, problems),
      };
      if (!peers || !trailing || !problems.empty) return rejectInput(engine, req, problems);
      const space = wideningSpace(peers, asOf(), trailing);
      const counts = await engine.widenings(space);
      assertCoverageReference(ctx, req, counts.reference, problems);
      const { original, suggestions } = suggestPeerGroups(space, trailing, counts, bounds, rule);
      return {
        original: {
          programCount: original.programCount === null ? undefined : BigInt(original.programCount),
          companyCount: original.companyCount === null ? undefined : BigInt(original.companyCount),
          meets: original.meets,
        },
        suggestions: suggestions.map((suggestion) => suggestionMessage(space, trailing, suggestion)),
      };
    },
  };
}

/**
 * The best suggestion for a group the disclosure rule refused (issue 30): the first that
 * section 14 answers with its defaults (minPrograms 30, the group's own window), or
 * undefined when none qualifies. Computed only when a refusal happens.
 */
export async function bestSuggestion(
  engine: PeerEngine,
  rule: DisclosureRule,
  asOf: string,
  group: RefusedGroup,
): Promise<PeerGroupSuggestion | undefined> {
  const space = wideningSpace(group.peers, asOf, group.trailing);
  const counts = await engine.widenings(space);
  const [best] = suggestPeerGroups(
    space,
    group.trailing,
    counts,
    { minPrograms: MIN_PROGRAMS.default, maxSuggestions: 1 },
    rule,
  ).suggestions;
  return best && suggestionMessage(space, group.trailing, best);
}

function suggestionMessage(
  space: WideningSpace,
  trailing: { oldest: number; newest: number },
  suggestion: Suggestion,
): PeerGroupSuggestion {
  return create(PeerGroupSuggestionSchema, {
    moves: suggestion.moves,
    programCount: BigInt(suggestion.programCount),
    companyCount: BigInt(suggestion.companyCount),
    peerGroup: suggestedPeerGroup(space, trailing, suggestion.code),
  });
}

/** minPrograms and maxSuggestions: absent (or null) is the default; anything else outside the bounds, 0 included, is a 400 naming the field. */
function readBound(
  field: string,
  value: number | undefined,
  bounds: { default: number; min: number; max: number },
  problems: FieldProblems,
): number {
  if (value === undefined || !problems.usable(field)) return bounds.default;
  if (value < bounds.min || value > bounds.max)
    problems.add(field, `must be an integer from ${bounds.min} to ${bounds.max.toLocaleString("en-US")}, not ${value}`);
  return value;
}
