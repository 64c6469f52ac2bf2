// The documented answers against the bytes the REST face really writes: for every
// route, json-writer.ts's answer for an empty and for a full output message conforms,
// strictly, to the route's 200 schema; counts are bare integers, unset optional and
// message fields null, 64-bit integers numbers.
import { create, ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import t from "tap";
import { GetCompanyResponseSchema } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { openApiDocument } from "../../src/openapi/openapi-document.js";
import type { HttpRoute } from "../../src/transcoding/http-routes.js";
import { fieldJson, messageJson } from "../../src/transcoding/json-writer.js";
import { matchOpenApiPath } from "../helpers/openapi-path-match.js";
import { resolve, schemaProblems } from "../helpers/json-schema-check.js";
import { restRoutes } from "../helpers/rest-routes.js";

type Json = { [key: string]: unknown };

const P = "/commercialpolicybenchmark/v2.0";
const document = openApiDocument(restRoutes, { issuer: undefined, version: "0" }) as Json;
const paths = document.paths as Record<string, Record<string, Json>>;

/** The 200 schema of the operation a route's requests reach. */
function answerSchema(route: HttpRoute): Json {
  const found = matchOpenApiPath(Object.keys(paths), route.template.source.replace(/\{[^}]+\}/g, "17"))!;
  const operation = paths[found.template]![route.httpMethod.toLowerCase()]!;
  return (((operation.responses as Json)["200"] as Json).content as Json)["application/json"] as Json;
}

/** What rest-handler.ts writes for an answer (its answerJson), parsed. */
function written(route: HttpRoute, output: Message): unknown {
  const bytes =
    route.responseBody === ""
      ? messageJson(route.method.output, output)
      : fieldJson(
          route.method.output.fields.find((f) => f.name === route.responseBody)!,
          output,
        );
  return JSON.parse(Buffer.concat(bytes.chunks()).toString("utf8"));
}

/** A message with every field set, lists of two, 64-bit integers beyond 32 bits. */
function full(schema: DescMessage): Message {
  const init: Record<string, unknown> = {};
  for (const field of schema.fields) init[field.localName] = sample(field);
  return create(schema, init);
}

function sample(field: DescField): unknown {
  switch (field.fieldKind) {
    case "scalar":
      return scalarSample(field.scalar);
    case "message":
      return full(field.message);
    case "list":
      if (field.listKind === "message") return [full(field.message), full(field.message)];
      if (field.listKind === "scalar") return [scalarSample(field.scalar), scalarSample(field.scalar)];
      throw new Error(`no sample of ${field.name}`);
    default:
      throw new Error(`no sample of ${field.name}`);
  }
}

function scalarSample(type: ScalarType): unknown {
  switch (type) {
    case ScalarType.STRING:
      return "text";
    case ScalarType.BOOL:
      return true;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return 1234.5;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 2n ** 40n + 3n;
    default:
      return 7;
  }
}

t.test("every route's written answer, empty or full, conforms strictly to its documented 200 schema", async (t) => {
  for (const route of restRoutes) {
    const schema = answerSchema(route).schema as Json;
    const output = route.method.output;
    // A response_body message field is the answer itself, which the services always set:
    // its empty form (null) is never written, and the schema says so.
    const answerIsMessage = output.fields.find((f) => f.name === route.responseBody)?.fieldKind === "message";
    const forms: [string, Message][] = [
      ["full", full(output)],
      ...(answerIsMessage ? [] : [["empty", create(output)] as [string, Message]]),
    ];
    for (const [kind, message] of forms) {
      const answer = written(route, message);
      t.same(
        schemaProblems(document, schema, answer),
        [],
        `${route.httpMethod} ${route.template.source}, ${kind}: ${JSON.stringify(answer).slice(0, 80)}`,
      );
    }
  }
});

t.test("the check is not vacuous: a string count, a missing or an extra field is refused", async (t) => {
  const route = restRoutes.find((r) => r.method.name === "GetAssessmentData")!;
  const schema = answerSchema(route).schema as Json;
  const answer = written(route, full(route.method.output)) as Json;
  const distribution = answer.limitDistribution as { bands: Json[] };
  distribution.bands[0]!.programCount = "5";
  t.match(schemaProblems(document, schema, answer).join(), /programCount: "5" is not integer/);
  distribution.bands[0]!.programCount = 5;
  delete answer.totalLossCount;
  t.match(schemaProblems(document, schema, answer).join(), /totalLossCount is missing/);
  answer.totalLossCount = 1;
  answer.surprise = true;
  t.match(schemaProblems(document, schema, answer).join(), /surprise is not declared/);
});

t.test("counts with response_body: the 200 schema is a bare integer, and the answer a bare number", async (t) => {
  for (const name of ["GetTotalProgramCount", "GetTotalLossCount"]) {
    const route = restRoutes.find((r) => r.method.name === name)!;
    t.same(answerSchema(route), { schema: { type: "integer", format: "int64" } }, name);
    t.equal(written(route, full(route.method.output)), 2 ** 40 + 3, `${name}: a JSON number, not a string`);
  }
});

t.test("nulls: unset optional scalars and message fields are null in the schema as in the answer", async (t) => {
  const company = resolve(document, "#/components/schemas/Company");
  const properties = company.properties as Record<string, Json>;
  t.same(properties.naics2, { type: ["integer", "null"], format: "int32" }, "optional int32");
  t.same(properties.numberOfEmployees, { type: ["integer", "null"], format: "int64" }, "optional int64");
  t.same(properties.revenues, { type: ["number", "null"], format: "double" }, "optional double");
  t.same(properties.id, { type: "integer", format: "int64" }, "int64 without presence: never null, a number");
  t.same(company.required, Object.keys(properties), "every field is always written");

  const lossDetail = resolve(document, "#/components/schemas/LossDetail").properties as Record<string, Json>;
  t.same(lossDetail.accidentDate, { type: ["string", "null"] }, "spec 2.9: accidentDate is null when unknown");
  t.same(lossDetail.lossLOB, { type: "string" }, "the field's json_name");

  const getCompany = restRoutes.find((r) => r.method.name === "GetCompany")!;
  t.same(
    answerSchema(getCompany).schema,
    { $ref: "#/components/schemas/Company" },
    "a response_body message: the object, never null",
  );
  // company is always sent (google.api.field_behavior = REQUIRED): even unset, the writer writes an object.
  const unsetCompany = written(getCompany, create(GetCompanyResponseSchema));
  t.match(unsetCompany, { id: 0, companyName: "", naics2: null }, "an always-sent field unset: an object, not null");
  t.same(schemaProblems(document, answerSchema(getCompany).schema as Json, unsetCompany), [], "which the schema takes");
  t.not(schemaProblems(document, answerSchema(getCompany).schema as Json, null).length, 0, "and null is refused");
  const assessment = resolve(document, "#/components/schemas/GetAssessmentDataResponse").properties as Record<
    string,
    Json
  >;
  t.same(
    assessment.limitDistribution,
    { $ref: "#/components/schemas/Distribution" },
    "a message field the contract always sends: the object, never null",
  );
  for (const [schema, field] of [
    ["GetAssessmentDataResponse", "premiumDistribution"],
    ["PostAssessmentDataResponse", "retentionDistribution"],
    ["SuggestPeerGroupsResponse", "original"],
    ["PeerGroupSuggestion", "peerGroup"],
  ] as const)
    t.notOk(
      JSON.stringify((resolve(document, `#/components/schemas/${schema}`).properties as Json)[field]).includes("null"),
      `${schema}.${field} is never null`,
    );
  t.same(
    (resolve(document, "#/components/schemas/TrendPeriod").properties as Record<string, Json>).limit,
    { anyOf: [{ $ref: "#/components/schemas/TrendQuartiles" }, { type: "null" }] },
    "a message field that may be unset (a withheld period's quartiles): the object or null",
  );

  const limitAdequacy = resolve(document, "#/components/schemas/LimitAdequacy").properties as Record<string, Json>;
  t.same(
    limitAdequacy.listOfCases,
    { type: "array", items: { $ref: "#/components/schemas/LossCase" } },
    "a list is never null",
  );
  t.same((resolve(document, "#/components/schemas/LossCase").properties as Json).lossEventID, {
    type: "integer",
    format: "int64",
  });

  // SEMANTICS.md section 13: a withheld period's figures, and quartiles of no value, are null.
  const period = resolve(document, "#/components/schemas/TrendPeriod").properties as Record<string, Json>;
  t.same(period.programCount, { type: ["integer", "null"], format: "int64" }, "a withheld period's program count");
  t.same(period.lossCount, { type: "integer", format: "int64" }, "loss counts are public: never null");
  t.same(period.withheld, { anyOf: [{ $ref: "#/components/schemas/WithheldPeriod" }, { type: "null" }] });
  t.same((resolve(document, "#/components/schemas/TrendQuartiles").properties as Json).median, {
    type: ["number", "null"],
    format: "double",
  });

  // SEMANTICS.md section 15: a withheld year's program figures, frequency without programs,
  // severity without paid losses, a percent without paid losses are null; the total is always sent.
  const year = resolve(document, "#/components/schemas/LossExperienceYear").properties as Record<string, Json>;
  t.same(year.programCount, { type: ["integer", "null"], format: "int64" }, "a withheld year's program count");
  t.same(year.frequencyPer100, { type: ["number", "null"], format: "double" }, "frequencyPer100, as §15 spells it");
  t.same(year.lossCount, { type: "integer", format: "int64" }, "loss counts are public: never null");
  t.same(year.severity, { anyOf: [{ $ref: "#/components/schemas/LossSeverity" }, { type: "null" }] });
  t.same(year.exceeding, { type: "array", items: { $ref: "#/components/schemas/LimitExceeded" } });
  t.same(year.withheld, { anyOf: [{ $ref: "#/components/schemas/WithheldLossExperience" }, { type: "null" }] });
  t.same((resolve(document, "#/components/schemas/LimitExceeded").properties as Json).percent, {
    type: ["number", "null"],
    format: "double",
  });
  t.same(
    (resolve(document, "#/components/schemas/GetLossExperienceResponse").properties as Json).total,
    { $ref: "#/components/schemas/LossExperienceTotal" },
    "the total is always sent",
  );
});

t.test(
  "only what a route writes is a component: no wrapper of a response_body field, no request of a GET",
  async (t) => {
    const schemas = Object.keys((document.components as Json).schemas as Json).sort();
    t.same(schemas, [
      "Band",
      "Company",
      "CompanySummary",
      "Coverage",
      "DisclosureRefusal",
      "Distribution",
      "GetAssessmentDataResponse",
      "GetLossExperienceRequest",
      "GetLossExperienceResponse",
      "GetMarketTrendRequest",
      "GetMarketTrendResponse",
      "GetRpmDistributionDataRequest",
      "GetRpmDistributionDataResponse",
      "GetTotalLossCountRequest",
      "GetTotalProgramCountRequest",
      "LimitAdequacy",
      "LimitExceeded",
      "LineOfBusiness",
      "LossCase",
      "LossDetail",
      "LossExperienceTotal",
      "LossExperienceYear",
      "LossSeverity",
      "NaicsSector",
      "NaicsSubsector",
      "OrganizationType",
      "OriginalPeerGroup",
      "PeerGroupSuggestion",
      "PostAssessmentDataRequest",
      "PostAssessmentDataResponse",
      "PostLimitAdequacyDataRequest",
      "Problem",
      "ProblemError",
      "ReferenceData",
      "SearchCompaniesResponse",
      "SuggestPeerGroupsRequest",
      "SuggestPeerGroupsResponse",
      "SuggestedPeerGroup",
      "TrendPeriod",
      "TrendQuartiles",
      "WithheldLossExperience",
      "WithheldPeriod",
    ]);
    t.ok(paths[`${P}/company/{id}`], "GetCompany answers Company alone");
  },
);
