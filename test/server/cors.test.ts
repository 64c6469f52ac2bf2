// CORS (issue 15): off by default; for the origins of CORS_ORIGINS, preflights are
// answered per the Fetch standard and answers carry the headers a page may read.
import t from "tap";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";
import { ConfigError } from "../../src/config-error.js";
import { readConfig } from "../../src/config.js";

const PATH = "/commercialpolicybenchmark/v2.0/assessment/getassessmentdata";
const BROKER = "https://broker.example";

const preflight = (url: string, origin: string, headers = "authorization, content-type") =>
  fetch(url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": headers },
  });

t.test("off by default: no CORS header, a preflight is not answered", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const answer = await preflight(`${server.url}${PATH}`, BROKER);
  t.equal(answer.headers.get("access-control-allow-origin"), null);
  t.equal(answer.status, 405, "OPTIONS is no method of the API");
  const get = await fetch(`${server.url}/healthz`, { headers: { origin: BROKER } });
  t.equal(get.headers.get("access-control-allow-origin"), null);
});

t.test("for an allowed origin: preflights of REST, Connect and gRPC-Web, and readable answers", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const server = await startTestServer(t, knex, { corsOrigins: [BROKER, "http://localhost:5173"] });

  for (const [path, headers] of [
    [PATH, "authorization, content-type"],
    [
      "/commercialpolicybenchmark.v2.CompanyService/GetCompany",
      "authorization, content-type, connect-protocol-version, connect-timeout-ms",
    ],
    [
      "/commercialpolicybenchmark.v2.CompanyService/GetCompany",
      "authorization, content-type, x-grpc-web, x-user-agent, grpc-timeout",
    ],
  ] as const) {
    const answer = await preflight(`${server.url}${path}`, BROKER, headers);
    t.equal(answer.status, 204, `${path}: ${headers}`);
    t.equal(answer.headers.get("access-control-allow-origin"), BROKER);
    t.match(answer.headers.get("access-control-allow-methods"), /POST/);
    const allowed = answer.headers.get("access-control-allow-headers")!.split(", ");
    for (const header of headers.split(", ")) t.ok(allowed.includes(header), `${header} allowed`);
    t.equal(answer.headers.get("access-control-allow-credentials"), null, "never credentials: tokens are not cookies");
    t.ok(Number(answer.headers.get("access-control-max-age")) > 0);
    t.match(answer.headers.get("vary"), /Origin/);
  }

  const lookup = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/company/1001`, {
    headers: { origin: "http://localhost:5173" },
  });
  t.equal(lookup.status, 200);
  t.equal(lookup.headers.get("access-control-allow-origin"), "http://localhost:5173");
  const exposed = lookup.headers.get("access-control-expose-headers")!.split(", ");
  for (const header of ["x-request-id", "etag", "retry-after"]) t.ok(exposed.includes(header), `${header} exposed`);
  t.match(lookup.headers.get("vary"), /Origin/);

  const stranger = await preflight(`${server.url}${PATH}`, "https://evil.example");
  t.equal(stranger.status, 403, "another origin's preflight is refused");
  t.equal(stranger.headers.get("access-control-allow-origin"), null);
  const strangerGet = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/company/1001`, {
    headers: { origin: "https://evil.example" },
  });
  t.equal(
    strangerGet.headers.get("access-control-allow-origin"),
    null,
    "its actual request gets no CORS header: the browser keeps the answer from the page",
  );
});

t.test("CORS_ORIGINS: origins or *, anything else stops start-up naming the variable", async (t) => {
  const read = (value: string) => readConfig({ CORS_ORIGINS: value }, { host: "127.0.0.1" }).corsOrigins;
  t.same(read(""), []);
  t.same(read("https://a.example, http://localhost:5173"), ["https://a.example", "http://localhost:5173"]);
  t.same(read("*"), ["*"]);
  for (const bad of ["https://a.example/", "a.example", "https://a.example/app", "ftp://a.example"]) {
    t.throws(
      () => read(bad),
      new ConfigError(
        `CORS_ORIGINS must list origins such as https://app.example.com (scheme, host and port only) or *, not "${bad}"`,
      ),
      bad,
    );
  }
});
