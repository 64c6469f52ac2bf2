// The disclosure guard asks for a suggestion only on a refusal's path (issue 30: the
// answers of groups that pass cost nothing more), and puts it in the refusal's detail.
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { ConnectError, createContextValues, type HandlerContext } from "@connectrpc/connect";
import { pino } from "pino";
import { DisclosureRefusalSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { AssessmentService } from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { PeerGroupSuggestionSchema } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { Decimal } from "../../src/benchmark/decimal.js";
import { STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import type { Contributors } from "../../src/benchmark/peer-statistics.js";
import { createDisclosureGuard, type RefusedGroup } from "../../src/services/disclosure-guard.js";

const ctx = {
  values: createContextValues(),
  method: AssessmentService.method.getTotalProgramCount,
} as unknown as HandlerContext;
const group: RefusedGroup = {
  peers: {
    naics2: ["52"],
    naics3: [],
    coverageId: 1,
    lineOfBusinessIds: [],
    exposure: "revenues",
    exposureLow: new Decimal(0),
    exposureHigh: new Decimal(10),
    organizationTypes: [],
  },
  trailing: { oldest: 12, newest: 0 },
};
const passing: Contributors = {
  programs: 100,
  companies: 50,
  topTwoCompanyPrograms: 4,
  partnerPrograms: 0,
  largestSourcePrograms: 0,
};

t.test("a group that passes: no suggestion is computed", async (t) => {
  const asked: RefusedGroup[] = [];
  const guard = createDisclosureGuard(
    STANDARD_RULE,
    pino({ level: "silent" }),
    async (g) => (asked.push(g), undefined),
  );
  await guard.check(ctx, "programs", passing, group);
  await createDisclosureGuard(
    { kind: "none" },
    pino({ level: "silent" }),
    async (g) => (asked.push(g), undefined),
  ).check(ctx, "programs", undefined, group);
  t.same(asked, [], "never asked");
});

t.test("a refusal: the suggestion for the refused group, in the detail", async (t) => {
  const asked: RefusedGroup[] = [];
  const suggestion = create(PeerGroupSuggestionSchema, { moves: ["window"], programCount: 40n, companyCount: 12n });
  const guard = createDisclosureGuard(
    STANDARD_RULE,
    pino({ level: "silent" }),
    async (g) => (asked.push(g), suggestion),
  );
  const error = await guard.check(ctx, "limits", { ...passing, companies: 4 }, group).then(
    () => undefined,
    (e: unknown) => ConnectError.from(e),
  );
  t.same(asked, [group], "asked once, for the refused group");
  t.same(error?.findDetails(DisclosureRefusalSchema)[0]?.suggestion?.moves, ["window"]);
  t.equal(guard.refusals().get("min_companies"), 1);
  const none = createDisclosureGuard(STANDARD_RULE, pino({ level: "silent" }), async () => undefined);
  const bare = await none.check(ctx, "programs", { ...passing, companies: 1 }, group).then(
    () => undefined,
    (e: unknown) => ConnectError.from(e),
  );
  t.equal(bare?.findDetails(DisclosureRefusalSchema)[0]?.suggestion, undefined, "none qualifies: no suggestion");
});
