// The contract's list limits: every list input of every operation has one, the same
// field has the same limit wherever it appears, and decoded messages are checked against them.
import t from "tap";
import { create } from "@bufbuild/protobuf";
import {
  AssessmentService,
  GetTotalLossCountRequestSchema,
} from "../../gen/commercialpolicybenchmark/v2/assessment_pb.js";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { LossDetailsService } from "../../gen/commercialpolicybenchmark/v2/loss_details_pb.js";
import { listLimitProblems, maxItemsOf } from "../../src/rpc/list-limits.js";

const SERVICES = [AssessmentService, CompanyService, LossDetailsService];

t.test("every list input of every operation has a limit, the same wherever the field appears", async (t) => {
  const limits = new Map<string, Set<number | undefined>>();
  for (const method of SERVICES.flatMap((service) => service.methods)) {
    for (const field of method.input.fields.filter((f) => f.fieldKind === "list")) {
      const seen = limits.get(field.jsonName) ?? new Set();
      limits.set(field.jsonName, seen.add(maxItemsOf(field)));
    }
  }
  t.same(Object.fromEntries([...limits].map(([field, seen]) => [field, [...seen]])), {
    naics: [1100],
    lineOfBusinessId: [1000],
    organizationType: [100],
    limits: [3], // the loss experience's: the client's limit and two it weighs (SEMANTICS.md section 15)
  });
});

t.test("a decoded message's lists over their limits, as problems", async (t) => {
  const request = create(GetTotalLossCountRequestSchema, {
    naics: Array(1100).fill("52"),
    lineOfBusinessId: Array(1001).fill(1),
    organizationType: Array(100_000).fill("PUB"),
  });
  t.same(listLimitProblems(GetTotalLossCountRequestSchema, request), [
    { field: "lineOfBusinessId", message: "must have at most 1000 items" },
    { field: "organizationType", message: "must have at most 100 items" },
  ]);
});
