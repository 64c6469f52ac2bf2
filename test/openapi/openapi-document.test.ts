// The OpenAPI document against the route table it is generated from: valid OpenAPI
// 3.1 (and the validator does refuse broken copies), every route of the REST face
// with its method and no other operation, its inputs with their aliases, its error
// answers and its security.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Code } from "@connectrpc/connect";
import t from "tap";
import { openApiDocument } from "../../src/openapi/openapi-document.js";
import { problem } from "../../src/transcoding/problem-document.js";
import { matchOpenApiPath } from "../helpers/openapi-path-match.js";
import { resolve, schemaProblems } from "../helpers/json-schema-check.js";
import { restRoutes } from "../helpers/rest-routes.js";
import type { DescMethod } from "@bufbuild/protobuf";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import type { HttpRoute } from "../../src/transcoding/http-routes.js";
import { parsePathTemplate } from "../../src/transcoding/path-template.js";
import { exposureColumn } from "../../src/benchmark/exposure-type.js";

type Json = { [key: string]: unknown };

const P = "/commercialpolicybenchmark/v2.0";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const ISSUER = "https://idp.example.com/tenant/";
const document = openApiDocument(restRoutes, { issuer: ISSUER, version: "1.2.3" }) as Json;
const paths = document.paths as Record<string, Record<string, Json>>;

/** Every operation of the document, with its path and lower-case method. */
function operations(doc: Json = document): { path: string; method: string; operation: Json }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

function operationOf(method: string, path: string, doc: Json = document): Json {
  const operation = (doc.paths as Record<string, Record<string, Json>>)[path]?.[method];
  if (!operation) throw new Error(`no ${method} ${path}`);
  return operation;
}

/** The documented operation a route's requests reach, found as a client would find it: by path and method. */
function operationOfRoute(route: HttpRoute): { path: string; operation: Json | undefined } | undefined {
  // A request to the route, as a caller would send it: each variable an id.
  const request = route.template.source.replace(/\{[^}]+\}/g, "17");
  const found = matchOpenApiPath(Object.keys(paths), request);
  return found && { path: found.template, operation: paths[found.template]![route.httpMethod.toLowerCase()] };
}

async function validate(doc: unknown) {
  const validator = new Validator();
  const result = await validator.validate(doc as Record<string, unknown>);
  return { ...result, version: validator.version };
}

t.test("the document is valid OpenAPI 3.1, with an issuer or without, with a server or without", async (t) => {
  const variants = {
    "issuer, no server": document,
    "no issuer": openApiDocument(restRoutes, { issuer: undefined, version: "1.2.3" }),
    "a server URL and scopes": openApiDocument(restRoutes, {
      issuer: ISSUER,
      version: "1.2.3",
      serverUrl: "https://api.example.com",
      scopes: ["benchmark:read"],
    }),
  };
  for (const [name, doc] of Object.entries(variants)) {
    const result = await validate(doc);
    t.same(result, { valid: true, version: "3.1" }, name);
  }
  t.equal(document.openapi, "3.1.0");
  t.same(document.info, {
    title: "Commercial Policy Benchmark",
    version: "1.2.3",
    description: (document.info as Json).description,
  });
  t.notOk("servers" in document, "no server: relative to where the document is served");
  t.same(variants["a server URL and scopes"].servers, [{ url: "https://api.example.com" }]);
  t.same(JSON.parse(JSON.stringify(document)), document, "plain JSON data");
  t.same(openApiDocument(restRoutes, { issuer: ISSUER, version: "1.2.3" }), document, "the same for the same routes");
});

t.test("the validator refuses a broken document (so the test above can fail)", async (t) => {
  const components = (doc: Json) => doc.components as Record<string, Record<string, Json>>;
  const broken: [string, (doc: Json) => void][] = [
    ["no info", (doc) => delete doc.info],
    [
      "a path parameter not required",
      (doc) => ((operationOf("get", `${P}/company/{id}`, doc).parameters as Json[])[0]!.required = false),
    ],
    ["a $ref to no schema", (doc) => delete components(doc).schemas!.Company],
    [
      "an openIdConnect scheme without its URL",
      (doc) => delete components(doc).securitySchemes!.openId!.openIdConnectUrl,
    ],
    [
      "a response without a description",
      (doc) => delete ((operationOf("get", `${P}/company`, doc).responses as Json)["200"] as Json).description,
    ],
  ];
  for (const [name, breakIt] of broken) {
    const copy = structuredClone(document);
    breakIt(copy);
    t.equal((await validate(copy)).valid, false, name);
  }
  t.same(await validate(document), { valid: true, version: "3.1" }, "the original is untouched");
});

t.test("every route of the REST face is an operation with its method, and there is no other", async (t) => {
  for (const route of restRoutes) {
    const found = operationOfRoute(route);
    t.ok(found?.operation, `${route.httpMethod} ${route.template.source}: documented as ${found?.path}`);
  }
  t.equal(operations().length, restRoutes.length, "one operation per route");
  t.same(
    operations()
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
      .sort(),
    restRoutes.map((r) => `${r.httpMethod} ${r.template.source.replace("{loss_event_id}", "{lossEventId}")}`).sort(),
  );
});

t.test(
  "operationIds: from the RPC names, unique, with the method and the path where an RPC has several bindings",
  async (t) => {
    const ids = operations().map(
      ({ method, path, operation }) =>
        `${method.toUpperCase()} ${path.replace("/commercialpolicybenchmark/v2.0", "")} ${String(operation.operationId)}`,
    );
    t.same(ids.sort(), [
      "GET /assessment/getassessmentdata GetAssessmentData",
      "GET /assessment/getrpmdistributiondata GetRpmDistributionData_get",
      "GET /company SearchCompanies",
      "GET /company/{id} GetCompany",
      "GET /lossdetails/getlimitadequacydata GetLimitAdequacy_get_getlimitadequacydata",
      "GET /lossdetails/getlossexperience GetLossExperience_get",
      "GET /lossdetails/limitadequacy GetLimitAdequacy_get_limitadequacy",
      "GET /lossdetails/{lossEventId} GetLossDetails",
      "GET /peergroup/suggestpeergroups SuggestPeerGroups_get",
      "GET /reference/getreferencedata GetReferenceData",
      "GET /trend/getmarkettrend GetMarketTrend_get",
      "POST /assessment/getTotalLossCount GetTotalLossCount",
      "POST /assessment/getTotalProgramCount GetTotalProgramCount",
      "POST /assessment/getassessmentdata PostAssessmentData",
      "POST /assessment/getrpmdistributiondata GetRpmDistributionData_post",
      "POST /lossdetails/getlimitadequacydata PostLimitAdequacyData",
      "POST /lossdetails/getlossexperience GetLossExperience_post",
      "POST /peergroup/suggestpeergroups SuggestPeerGroups_post",
      "POST /trend/getmarkettrend GetMarketTrend_post",
    ]);
    t.same(
      operations().map(({ operation }) => (operation.tags as string[]).join()),
      restRoutes.map((r) => r.method.parent.name),
      "tagged with the service",
    );
    t.same(
      (document.tags as Json[]).map((tag) => tag.name),
      [
        "AssessmentService",
        "CompanyService",
        "LossDetailsService",
        "PeerGroupService",
        "ReferenceService",
        "MarketTrendService",
      ],
    );
  },
);

t.test("path parameters: each {name} of a path is a required path parameter, and back", async (t) => {
  for (const { path, method, operation } of operations()) {
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const declared = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === "path");
    t.same(
      declared.map((p) => p.name),
      inPath,
      `${method} ${path}`,
    );
    for (const parameter of declared) t.equal(parameter.required, true);
  }
  t.same((operationOf("get", `${P}/company/{id}`).parameters as Json[])[0], {
    name: "id",
    in: "path",
    required: true,
    schema: { type: "integer", format: "int64" },
    description: "The company's id.",
  });
});

t.test(
  "query inputs: under the route's own spelling, required as the contract marks them, aliases noted, lists comma-separated",
  async (t) => {
    const assessment = operationOf("get", `${P}/assessment/getassessmentdata`).parameters as Json[];
    t.same(
      assessment.filter((p) => p.required).map((p) => p.name),
      ["naics", "coverageId", "exposureRangeLow", "exposureRangeHigh"],
      "the JSON names, required",
    );
    const limitAdequacy = operationOf("get", `${P}/lossdetails/limitadequacy`).parameters as Json[];
    t.same(
      limitAdequacy.map((p) => p.name),
      [
        "Naics",
        "CoverageId",
        "LobId",
        "ExposureType",
        "ExposureRangeLow",
        "ExposureRangeHigh",
        "OrganizationType",
        "ClientLimit",
        "Limit",
      ],
      "spec 4.8's capitalized names",
    );
    t.same(
      limitAdequacy.filter((p) => p.required).map((p) => p.name),
      ["Naics", "CoverageId", "ExposureRangeLow", "ExposureRangeHigh"],
    );
    t.ok(limitAdequacy.every((p) => p.in === "query"));
    const byName = new Map(limitAdequacy.map((p) => [p.name, p]));
    t.same(byName.get("LobId"), {
      name: "LobId",
      in: "query",
      schema: { type: "array", items: { type: "integer", format: "int32" }, maxItems: 1000 },
      style: "form",
      explode: false,
      description:
        "Lines of business of the coverage; empty, or holding 0: every line of business.\n\nComma-separated; the parameter may also be repeated.\n\nThe name matches case-insensitively, ignoring spaces; also accepted as `lineOfBusinessId`, `lineOfBusiness`.",
      "x-aliases": ["lineOfBusinessId", "lineOfBusiness"],
    });
    const exposure = byName.get("ExposureType")!;
    t.same(
      exposure.schema,
      { type: "string", enum: ["Revenues", "Employees", "Market Cap"] },
      "a closed set is an enum",
    );
    t.same(exposure["x-aliases"], ["exposure"], "a case variant of the documented name is no alias");
    // The enum is the contract's (closed_set); the service reads the values in exposure-type.ts.
    for (const value of (exposure.schema as { enum: string[] }).enum)
      t.ok(exposureColumn(value), `the service reads ${value}`);
    t.same(
      new Set((exposure.schema as { enum: string[] }).enum.map(exposureColumn)).size,
      3,
      "three values, three columns",
    );
    t.match(exposure.description, /case-insensitively, ignoring spaces, `_` and `-`/);
    t.same(byName.get("ClientLimit")?.schema, { type: "number", format: "double" });
    const search = operationOf("get", `${P}/company`).parameters as Json[];
    t.same(
      search.map((p) => [p.name, p.schema]),
      [
        ["$filter", { type: "string" }],
        ["$orderBy", { type: "string" }],
        ["$skip", { type: "integer", format: "int64" }],
        ["$top", { type: "integer", format: "int32" }],
      ],
    );
    t.match(search[0]!.description, /OData v4 subset.*`startswith`/s, "$filter describes its OData subset");
    t.match(search[1]!.description, /`Property \[asc\|desc\]`/, "$orderBy describes its form");
    t.notOk(
      search.some((p) => p.required),
      "no search input is required",
    );
  },
);

t.test("summaries and descriptions come from the proto comments", async (t) => {
  for (const { path, method, operation } of operations()) {
    t.type(operation.summary, "string", `${method} ${path}`);
    t.notMatch(operation.summary, /^\//, `${method} ${path}: not a path`);
  }
  const assessment = operationOf("get", `${P}/assessment/getassessmentdata`);
  t.equal(assessment.summary, "Assessment data: the three distributions plus the program and loss counts");
  const summaries = operations().map(({ operation }) => operation.summary);
  t.equal(new Set(summaries).size, summaries.length, "every operation's summary is its own");
  t.equal(
    operationOf("post", `${P}/assessment/getrpmdistributiondata`).summary,
    "Rate-per-million statistics of the peer group (POST)",
  );
  t.match(assessment.description, /spec 4\.1/);
  const tags = document.tags as Json[];
  t.match(tags.find((tag) => tag.name === "CompanyService")?.description, /Company lookup/);
});

t.test("body inputs: POST routes take a JSON object of the input fields, and no query parameter", async (t) => {
  for (const route of restRoutes) {
    const { path, operation } = operationOfRoute(route)!;
    const name = `${route.httpMethod} ${path}`;
    t.equal("requestBody" in operation!, route.body === "*", `${name}: a body exactly when the rule has one`);
    if (route.body === "*") t.notOk(operation!.parameters, `${name}: no query parameters (the binder reads none)`);
  }
  const body = operationOf("post", `${P}/lossdetails/getlimitadequacydata`).requestBody as Json;
  t.same(body, {
    content: { "application/json": { schema: { $ref: "#/components/schemas/PostLimitAdequacyDataRequest" } } },
  });
  const schema = resolve(document, "#/components/schemas/PostLimitAdequacyDataRequest");
  const properties = schema.properties as Record<string, Json>;
  t.same(Object.keys(properties), [
    "naics",
    "coverageId",
    "lineOfBusinessId",
    "exposureType",
    "exposureRangeLow",
    "exposureRangeHigh",
    "organizationType",
    "clientLimit",
    "limit",
    "lossYear",
    "oldestLossYear",
    "newestLossYear",
  ]);
  t.match(properties.naics, { type: "array", items: { type: "string" }, maxItems: 1100 });
  t.same(properties.lineOfBusinessId!["x-aliases"], ["lineOfBusiness", "lobId"]);
  t.same(
    schema.required,
    ["naics", "coverageId", "exposureRangeLow", "exposureRangeHigh"],
    "field_behavior REQUIRED, under the JSON names",
  );
  for (const route of restRoutes.filter((r) => r.body === "*")) {
    const body = (
      ((operationOfRoute(route)!.operation!.requestBody as Json).content as Json)["application/json"] as Json
    ).schema as Json;
    t.same(
      resolve(document, body.$ref as string).required,
      ["naics", "coverageId", "exposureRangeLow", "exposureRangeHigh"],
      `${route.method.name}: every peer-group body`,
    );
  }
});

t.test("errors: problem documents, by status, where a route can answer them", async (t) => {
  for (const { path, method, operation } of operations()) {
    const statuses = Object.keys(operation.responses as Json);
    const expected = [
      "200",
      "304",
      "400",
      "401",
      "403",
      ...(path.includes("{") ? ["404"] : []),
      ...(method === "post" ? ["413"] : []),
      "500",
      "503",
    ];
    t.same(statuses, expected, `${method} ${path}`);
  }
  const responses = (document.components as Json).responses as Record<string, Json>;
  for (const [name, response] of Object.entries(responses)) {
    t.same(Object.keys(response.content as Json), ["application/problem+json"], name);
  }
  t.same(Object.keys(responses.ServiceUnavailable!.headers as Json), ["Retry-After"]);
  t.same(Object.keys(responses.MethodNotAllowed!.headers as Json), ["Allow"]);
  t.same(Object.keys(responses.Unauthorized!.headers as Json), ["WWW-Authenticate"]);
  t.match(responses.BadRequest!.description, /`invalid_argument`/);

  // Problem documents as problem-document.ts makes them conform to the schema.
  const problemSchema = { $ref: "#/components/schemas/Problem" };
  const written = [
    problem(400, Code.InvalidArgument, "2 inputs are invalid", [
      { field: "newestTrailing", message: "must be less than oldestTrailing (6)" },
      { field: "$filter", message: "unknown property 'Revenue' at 0", position: 0 },
    ]),
    problem(404, Code.NotFound, "no company with id 5"),
    problem(503, Code.Unavailable, "the database is unavailable"),
  ];
  for (const doc of written)
    t.same(schemaProblems(document, problemSchema, JSON.parse(JSON.stringify(doc))), [], `${doc.status}`);
  t.not(
    schemaProblems(document, problemSchema, { status: 400, code: "bad", title: "Bad Request", detail: "x" }).length,
    0,
    "an unknown code is refused",
  );
});

t.test("security: OpenID Connect discovery from the issuer, or a pasted bearer JWT, on every operation", async (t) => {
  const schemes = (document.components as Json).securitySchemes as Json;
  t.same(Object.keys(schemes), ["openId", "bearerToken"]);
  t.match(schemes.openId, {
    type: "openIdConnect",
    openIdConnectUrl: "https://idp.example.com/tenant/.well-known/openid-configuration",
  });
  t.match(schemes.bearerToken, { type: "http", scheme: "bearer", bearerFormat: "JWT" });
  const plain = openApiDocument(restRoutes, { issuer: "https://idp.example.com", version: "1" }) as Json;
  t.match(((plain.components as Json).securitySchemes as Json).openId, {
    openIdConnectUrl: "https://idp.example.com/.well-known/openid-configuration",
  });
  for (const { operation } of operations()) t.same(operation.security, [{ openId: [] }, { bearerToken: [] }]);

  const scoped = openApiDocument(restRoutes, { issuer: ISSUER, version: "1", scopes: ["benchmark:read"] }) as Json;
  for (const { operation } of operations(scoped))
    t.same(operation.security, [{ openId: ["benchmark:read"] }, { bearerToken: [] }]);

  const anonymous = openApiDocument(restRoutes, {
    issuer: undefined,
    version: "1",
    scopes: ["benchmark:read"],
  }) as Json;
  t.same(
    Object.keys((anonymous.components as Json).securitySchemes as Json),
    ["bearerToken"],
    "no issuer known: the bearer scheme alone",
  );
  for (const { operation } of operations(anonymous)) t.same(operation.security, [{ bearerToken: [] }]);
});

t.test(
  "rules beyond today's contract: path fields leave a body; colliding ids and two spellings of a path are refused",
  async (t) => {
    const route = (httpMethod: string, template: string, method: DescMethod, body = ""): HttpRoute => ({
      httpMethod,
      template: parsePathTemplate(template),
      method,
      body,
      responseBody: "",
    });
    const { searchCompanies, getCompany } = CompanyService.method;

    // google/api/http.proto: with body "*", a field bound by the path is not in the body.
    const doc = openApiDocument([route("POST", "/c/{filter}", searchCompanies, "*")], {
      issuer: undefined,
      version: "1",
    }) as Json;
    t.same((await validate(doc)).valid, true);
    const operation = operationOf("post", "/c/{$filter}", doc);
    t.same(
      (operation.parameters as Json[]).map((p) => [p.name, p.in]),
      [["$filter", "path"]],
    );
    const schema = (((operation.requestBody as Json).content as Json)["application/json"] as Json).schema as Json;
    t.same(Object.keys(schema.properties as Json), ["$orderBy", "$skip", "$top"]);

    t.throws(
      () =>
        openApiDocument([route("GET", "/a/x/{id}", getCompany), route("GET", "/b/x/{id}", getCompany)], {
          issuer: undefined,
          version: "1",
        }),
      /operationId GetCompany_get_x: both GET \/a\/x\/\{id\} and GET \/b\/x\/\{id\}/,
    );
    t.throws(
      () =>
        openApiDocument([route("GET", "/a/Thing", searchCompanies), route("POST", "/a/thing", getCompany, "*")], {
          issuer: undefined,
          version: "1",
        }),
      /one path spelled twice/,
    );
  },
);
