// gRPC server reflection (issue 15): the tools that find a service's schema by asking
// it (buf curl without --schema, grpcurl, Postman) work against the one port, behind
// authentication like every call.
import t from "tap";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { createTestDatabase } from "../helpers/database.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";
import { InputProblemsSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { BadRequestSchema } from "../../gen/google/rpc/error_details_pb.js";

const run = promisify(execFile);
const SERVICES = [
  "commercialpolicybenchmark.v2.AssessmentService",
  "commercialpolicybenchmark.v2.CompanyService",
  "commercialpolicybenchmark.v2.LossDetailsService",
  "commercialpolicybenchmark.v2.MarketTrendService",
  "commercialpolicybenchmark.v2.PeerGroupService",
  "commercialpolicybenchmark.v2.ReferenceService",
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
];

t.test("buf curl lists the services and calls one without --schema, with a token", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const { server, authorization } = await startAuthenticatedServer(t, knex);
  const bufCurl = (...args: string[]) =>
    run("npx", [
      "--no",
      "buf",
      "curl",
      "--http2-prior-knowledge",
      "-H",
      `Authorization: ${authorization}`,
      "--reflect-header",
      "*",
      ...args,
    ]);

  const listed = await bufCurl("--list-services", server.url);
  t.same(listed.stdout.trim().split("\n").sort(), SERVICES);

  for (const protocol of ["connect", "grpc", "grpcweb"]) {
    const { stdout } = await bufCurl(
      "--protocol",
      protocol,
      "-d",
      '{"id": 1001}',
      `${server.url}/commercialpolicybenchmark.v2.CompanyService/GetCompany`,
    );
    t.match(
      JSON.parse(stdout),
      { company: { id: "1001", companyName: "Acme Holdings, Inc." } },
      `a call over ${protocol}, its schema found by reflection`,
    );
  }

  const methods = await bufCurl("--list-methods", server.url);
  t.match(methods.stdout, /commercialpolicybenchmark\.v2\.AssessmentService\/PostAssessmentData/);
  t.match(methods.stdout, /commercialpolicybenchmark\.v2\.LossDetailsService\/GetLossExperience/);

  const withoutToken = await run("npx", [
    "--no",
    "buf",
    "curl",
    "--http2-prior-knowledge",
    "--list-services",
    server.url,
  ]).then(
    () => "answered",
    (error: { stderr: string }) => error.stderr,
  );
  t.match(withoutToken, /not authenticated/, "reflection is behind authentication too");
});

t.test("v1 and v1alpha, over Connect, gRPC and gRPC-Web: files with their imports, each once per stream", async (t) => {
  const { knex } = await createTestDatabase(t);
  const { server, authorization } = await startAuthenticatedServer(t, knex);
  const transports: [string, Transport][] = [
    ["connect over h2c", createConnectTransport({ baseUrl: server.url, httpVersion: "2" })],
    ["grpc", createGrpcTransport({ baseUrl: server.url })],
    // A bidirectional stream needs HTTP/2 in every protocol (over HTTP/1.1 the server answers 505).
    ["grpc-web over h2c", createGrpcWebTransport({ baseUrl: server.url, httpVersion: "2" })],
  ];
  for (const [name, transport] of transports) {
    for (const service of [ServerReflection, ServerReflectionV1Alpha]) {
      const client = createClient(service, transport);
      async function* asked() {
        yield {
          messageRequest: {
            case: "fileContainingSymbol" as const,
            value: "commercialpolicybenchmark.v2.AssessmentService.PostAssessmentData",
          },
        };
        yield {
          messageRequest: {
            case: "fileContainingSymbol" as const,
            value: "commercialpolicybenchmark.v2.CompanyService",
          },
        };
        yield { messageRequest: { case: "fileByFilename" as const, value: "no/such.proto" } };
        yield {
          messageRequest: { case: "allExtensionNumbersOfType" as const, value: "google.protobuf.MethodOptions" },
        };
      }
      const answers = [];
      for await (const answer of client.serverReflectionInfo(asked(), { headers: { authorization } }))
        answers.push(answer);
      const label = `${name}, ${service.typeName}`;

      const first = answers[0]!.messageResponse;
      t.equal(first.case, "fileDescriptorResponse", label);
      const files = (first.value as { fileDescriptorProto: Uint8Array[] }).fileDescriptorProto.map((bytes) =>
        fromBinary(FileDescriptorProtoSchema, bytes),
      );
      t.equal(files[0]!.name, "commercialpolicybenchmark/v2/assessment.proto", `${label}: the file asked for first`);
      t.ok(
        files.some((f) => f.name === "google/api/annotations.proto"),
        `${label}: with what it imports`,
      );
      // The files make a complete set: a registry resolves every import.
      const registry = createFileRegistry(files[0]!, (name) => files.find((f) => f.name === name));
      t.ok(
        registry.getService("commercialpolicybenchmark.v2.AssessmentService"),
        `${label}: a registry builds from them`,
      );

      const second = answers[1]!.messageResponse.value as { fileDescriptorProto: Uint8Array[] };
      const secondNames = second.fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name);
      t.equal(secondNames[0], "commercialpolicybenchmark/v2/company.proto");
      t.notOk(
        secondNames.includes("google/api/annotations.proto"),
        `${label}: an import already sent on this stream is not sent again`,
      );
      t.match(answers[2]!.messageResponse, {
        case: "errorResponse",
        value: { errorCode: 5, errorMessage: 'no file "no/such.proto"' },
      });
      const numbers = answers[3]!.messageResponse;
      t.equal(numbers.case, "allExtensionNumbersResponse");
      t.ok(
        (numbers.value as { extensionNumber: number[] }).extensionNumber.includes(72295728),
        `${label}: google.api.http extends MethodOptions`,
      );
    }
  }
});

t.test("error details: reflection names their types; buf curl shows them, one of each", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const { server, authorization } = await startAuthenticatedServer(t, knex);

  // A tool that decodes details by reflection (grpcurl, Postman) asks for the file of the detail's type.
  const client = createClient(ServerReflection, createGrpcTransport({ baseUrl: server.url }));
  async function* asked() {
    for (const symbol of [
      "commercialpolicybenchmark.v2.InputProblems",
      "commercialpolicybenchmark.v2.DisclosureRefusal",
      "google.rpc.BadRequest",
      "google.rpc.RetryInfo",
    ])
      yield { messageRequest: { case: "fileContainingSymbol" as const, value: symbol } };
  }
  const files: string[] = [];
  for await (const answer of client.serverReflectionInfo(asked(), { headers: { authorization } })) {
    const response = answer.messageResponse;
    t.equal(response.case, "fileDescriptorResponse", "a detail's type is found");
    if (response.case === "fileDescriptorResponse")
      files.push(fromBinary(FileDescriptorProtoSchema, response.value.fileDescriptorProto[0]!).name);
  }
  t.same(files, [
    "commercialpolicybenchmark/v2/errors.proto",
    "commercialpolicybenchmark/v2/errors.proto",
    "google/rpc/error_details.proto",
    "google/rpc/error_details.proto",
  ]);

  // buf curl prints details through connect-go's error writer, which does not consult
  // reflection: each detail as its type and its bytes, here decoded as a client would.
  for (const protocol of ["grpc", "connect"]) {
    const stderr = await run("npx", [
      "--no",
      "buf",
      "curl",
      "--http2-prior-knowledge",
      "--protocol",
      protocol,
      "-H",
      `Authorization: ${authorization}`,
      "--reflect-header",
      "*",
      "-d",
      '{"naics": ["5"], "coverageId": 1, "exposureRangeLow": 0, "exposureRangeHigh": 1000}',
      `${server.url}/commercialpolicybenchmark.v2.AssessmentService/GetTotalProgramCount`,
    ]).then(
      () => "answered",
      (error: { stderr: string }) => error.stderr,
    );
    const printed = JSON.parse(stderr.slice(stderr.indexOf("{"))) as {
      code: string;
      details: { type: string; value: string }[];
    };
    t.equal(printed.code, "invalid_argument", `${protocol}: invalid_argument`);
    t.same(
      printed.details.map((detail) => detail.type),
      ["commercialpolicybenchmark.v2.InputProblems", "google.rpc.BadRequest"],
      `${protocol}: the contract's detail and the standard one`,
    );
    const bytes = (type: string) =>
      Buffer.from(printed.details.find((detail) => detail.type === type)!.value, "base64");
    t.match(fromBinary(InputProblemsSchema, bytes("commercialpolicybenchmark.v2.InputProblems")).problems, [
      { field: "naics", message: /"5" is not a 2- or 3-digit NAICS code/ },
    ]);
    t.match(fromBinary(BadRequestSchema, bytes("google.rpc.BadRequest")).fieldViolations, [
      { field: "naics", description: /"5" is not a 2- or 3-digit NAICS code/ },
    ]);
  }
});

t.test("reflection carries the contract's comments (source_code_info)", async (t) => {
  const { knex } = await createTestDatabase(t);
  const { server, authorization } = await startAuthenticatedServer(t, knex);
  const client = createClient(ServerReflection, createGrpcTransport({ baseUrl: server.url }));
  async function* asked() {
    yield {
      messageRequest: {
        case: "fileContainingSymbol" as const,
        value: "commercialpolicybenchmark.v2.AssessmentService",
      },
    };
  }
  for await (const answer of client.serverReflectionInfo(asked(), { headers: { authorization } })) {
    const response = answer.messageResponse;
    if (response.case !== "fileDescriptorResponse") continue;
    const file = fromBinary(FileDescriptorProtoSchema, response.value.fileDescriptorProto[0]!);
    t.equal(file.name, "commercialpolicybenchmark/v2/assessment.proto");
    const comment = (path: number[]) =>
      file.sourceCodeInfo?.location.find((l) => l.path.join(".") === path.join("."))?.leadingComments ?? "";
    const service = file.service.findIndex((s) => s.name === "AssessmentService");
    t.match(
      comment([6, service]),
      /Peer-group benchmarks: distributions, rate per million and counts/,
      "the service's",
    );
    const method = file.service[service]!.method.findIndex((m) => m.name === "GetTotalProgramCount");
    t.match(comment([6, service, 2, method]), /Total program count of the peer group/, "a method's");
    const message = file.messageType.findIndex((m) => m.name === "GetAssessmentDataRequest");
    const field = file.messageType[message]!.field.findIndex((f) => f.name === "naics");
    t.match(comment([4, message, 2, field]), /2- or 3-digit NAICS codes/, "a field's");
  }
});

t.test("reflection describes the loss experience with its comments (SEMANTICS.md section 15)", async (t) => {
  const { knex } = await createTestDatabase(t);
  const { server, authorization } = await startAuthenticatedServer(t, knex);
  const client = createClient(ServerReflection, createGrpcTransport({ baseUrl: server.url }));
  async function* asked() {
    yield {
      messageRequest: {
        case: "fileContainingSymbol" as const,
        value: "commercialpolicybenchmark.v2.LossDetailsService.GetLossExperience",
      },
    };
  }
  let files = 0;
  for await (const answer of client.serverReflectionInfo(asked(), { headers: { authorization } })) {
    const response = answer.messageResponse;
    if (response.case !== "fileDescriptorResponse") continue;
    files++;
    const file = fromBinary(FileDescriptorProtoSchema, response.value.fileDescriptorProto[0]!);
    t.equal(file.name, "commercialpolicybenchmark/v2/loss_details.proto");
    const comment = (path: number[]) =>
      file.sourceCodeInfo?.location.find((l) => l.path.join(".") === path.join("."))?.leadingComments ?? "";
    const service = file.service.findIndex((s) => s.name === "LossDetailsService");
    const method = file.service[service]!.method.findIndex((m) => m.name === "GetLossExperience");
    t.match(comment([6, service, 2, method]), /how often the peer group's companies had a loss/, "the method's");
    const message = file.messageType.findIndex((m) => m.name === "GetLossExperienceRequest");
    const field = (name: string) => file.messageType[message]!.field.findIndex((f) => f.name === name);
    t.match(comment([4, message, 2, field("years")]), /1 to 20; 5 when not given/, "years");
    t.match(comment([4, message, 2, field("limits")]), /at most 3/, "limits");
    const year = file.messageType.findIndex((m) => m.name === "LossExperienceYear");
    const frequency = file.messageType[year]!.field.find((f) => f.name === "frequency_per_100");
    t.equal(frequency?.jsonName, "frequencyPer100", "frequencyPer100, as SEMANTICS.md section 15 spells it");
  }
  t.equal(files, 1);
});
