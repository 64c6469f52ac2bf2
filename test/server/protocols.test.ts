import t from "tap";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { CompanySchema, CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { startTestServer } from "../helpers/server.js";
import { ACME_JSON, insertLookupFixture } from "../fixtures/lookup-fixture.js";

const run = promisify(execFile);

t.test("one port answers the same company over REST, gRPC, gRPC-Web, Connect and buf curl", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const server = await startTestServer(t, knex);

  const rest = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/company/1001`, {
    headers: { accept: "application/json" },
  });
  t.equal(rest.status, 200);
  t.match(rest.headers.get("content-type"), /^application\/json/);
  t.same(await rest.json(), ACME_JSON, "REST speaks the spec's names with JSON numbers");

  const grpcJs = await callWithGrpcJs(server.url, CompanyService.method.getCompany, { id: 1001n });
  t.same(restShape(grpcJs.company!), ACME_JSON, "@grpc/grpc-js over h2c");

  for (const [name, transport] of [
    ["connect over HTTP/1.1", createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" })],
    ["connect over h2c", createConnectTransport({ baseUrl: server.url, httpVersion: "2" })],
    ["grpc-web over HTTP/1.1", createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" })],
    ["grpc over h2c (connect-node)", createGrpcTransport({ baseUrl: server.url })],
  ] as const) {
    const client = createClient(CompanyService, transport);
    const { company } = await client.getCompany({ id: 1001n });
    t.same(restShape(company!), ACME_JSON, name);
  }

  const { stdout } = await run("npx", [
    "--no",
    "buf",
    "curl",
    "--protocol",
    "grpc",
    "--http2-prior-knowledge",
    "--schema",
    "proto",
    "-d",
    '{"id": 1001}',
    `${server.url}/commercialpolicybenchmark.v2.CompanyService/GetCompany`,
  ]);
  t.same(restShape(fromJson(CompanySchema, JSON.parse(stdout).company)), ACME_JSON, "buf curl with gRPC over h2c");
});

t.test("lookups: nulls, 404 for unknown ids, 400 for ids that are not integers", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const server = await startTestServer(t, knex);
  const get = async (path: string) => {
    const res = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/${path}`);
    return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
  };

  t.same(
    (await get("company/9007199254740991")).body,
    {
      id: 9007199254740991,
      companyName: "Société Générale",
      organizationType: "PRV",
      naics2: 52,
      naics3: null,
      revenues: null,
      numberOfEmployees: null,
      marketCap: null,
    },
    "unknown values are explicit nulls; a 2-digit code has no naics3",
  );

  t.same((await get("lossdetails/501")).body, {
    lossName: "Acme Holdings, Inc.",
    lossCategory: "Securities Class Action",
    lossType: "Stock Drop",
    lossCoverage: "Directors & Officers",
    lossLOB: "Side A",
    accidentDate: "2024-03-05T14:30:00",
    filingDate: "2024-06-01T00:00:00",
    status: "Settled",
    totalAmount: 2500000,
    lossDetailsDescription: "Shareholders alleged misleading statements.",
  });
  const pending = (await get("LossDetails/502/")).body as Record<string, unknown>;
  t.equal(pending.accidentDate, null, "unknown accident date is null");
  t.equal(pending.lossDetailsDescription, null, "no description is null");
  t.equal(pending.totalAmount, 0, "zero amounts are present");

  for (const id of ["0", "-4", "77", "99999999999999999999999", "1e999"]) {
    const answer = await get(`company/${id}`);
    t.equal(answer.status, 404, `company ${id}`);
    t.equal(answer.type, "application/problem+json");
    t.match(answer.body, { status: 404, code: "not_found", title: "Not Found" });
  }
  t.equal((await get("lossdetails/99999999999999999999999")).status, 404, "a huge loss event id");
  for (const id of ["abc", "1.5", "0.99999999999999999", "1e-1"]) {
    const answer = await get(`company/${id}`);
    t.equal(answer.status, 400, `company ${id}`);
    t.match(answer.body, { code: "invalid_argument", errors: [{ field: "id" }] });
  }
});

t.test("gRPC and Connect callers get the same codes", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const server = await startTestServer(t, knex);
  const client = createClient(CompanyService, createGrpcTransport({ baseUrl: server.url }));
  const missing = await client.getCompany({ id: 77n }).catch((e: unknown) => ConnectError.from(e));
  t.equal((missing as ConnectError).code, Code.NotFound);
  const search = await client.searchCompanies({ filter: "Revenue gt 5" }).catch((e: unknown) => ConnectError.from(e));
  t.equal((search as ConnectError).code, Code.InvalidArgument, "a bad filter");
  t.equal((search as ConnectError).rawMessage, "1 input is invalid: $filter: unknown property 'Revenue' at 0");
  const grpcError = await callWithGrpcJs(server.url, CompanyService.method.getCompany, { id: 77n }).catch(
    (e: { code: number }) => e,
  );
  t.equal((grpcError as { code: number }).code, 5, "grpc-js sees NOT_FOUND");
});

/** A Company message in the REST face's shape, to compare protocols with one expectation. */
function restShape(company: { [key: string]: unknown }) {
  const json = toJson(CompanySchema, company as never, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  const shaped: Record<string, unknown> = {};
  for (const field of CompanySchema.fields) {
    const value = json[field.jsonName];
    shaped[field.jsonName] =
      value === undefined ? null : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  }
  return shaped;
}
