// Every curl example of README.md and docs/*.md against the OpenAPI document: a REST call must be
// a documented operation (path template and method), and every query parameter or
// JSON key it sends a documented input of that operation (its name or an alias, in
// any case, ignoring spaces, as the binder reads them), since the server silently
// ignores names it does not know. Calls outside the REST face must be real too.
import { readdir, readFile } from "node:fs/promises";
import t, { type Test } from "tap";
import { Health } from "../../gen/health/v1/health_pb.js";
import { openApiDocument } from "../../src/openapi/openapi-document.js";
import { curlExamples, type CurlExample } from "../helpers/curl-examples.js";
import { matchOpenApiPath } from "../helpers/openapi-path-match.js";
import { resolve } from "../helpers/json-schema-check.js";
import { REST_SERVICES, restRoutes } from "../helpers/rest-routes.js";

type Json = { [key: string]: unknown };

const document = openApiDocument(restRoutes, { issuer: undefined, version: "0" }) as Json;
const paths = document.paths as Record<string, Record<string, Json>>;
/** The README and every topic it links to in docs/: each example is checked where it lives. */
const root = new URL("../../", import.meta.url);
const documentedFiles = [
  "README.md",
  ...(await readdir(new URL("docs/", root))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
const examplesOf = async (file: string) =>
  curlExamples(await readFile(new URL(file, root), "utf8")).map((example) => ({ ...example, file }));

/** gRPC and Connect procedures served on the same port: `/package.Service/Method`. */
const PROCEDURES = new Set(
  [...REST_SERVICES, Health].flatMap((service) => service.methods.map((m) => `/${service.typeName}/${m.name}`)),
);

/** Endpoints of the service outside the document (CONVENTIONS.md: health, discovery, metrics; the dev provider). */
const OTHER_ENDPOINTS = [
  /^\/$/,
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/openapi\.json$/,
  /^\/docs$/,
  /^\/metrics$/,
  /^\/oidc(\/|$)/,
];

/** The REST face's prefix: every documented path starts with it. */
const API_PREFIX = "/commercialpolicybenchmark/v2.0/";

/** How the binder compares names: in any case, ignoring spaces (field-binding.ts). */
const normalized = (name: string) => name.replace(/\s+/g, "").toLowerCase();

/** Every name an operation's inputs answer to, normalized: from the query or from the body. */
function inputNames(operation: Json): { query: Set<string>; body: Set<string> } {
  const query = ((operation.parameters ?? []) as Json[])
    .filter((p) => p.in === "query")
    .flatMap((p) => [p.name as string, ...((p["x-aliases"] ?? []) as string[])]);
  const content = ((operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
  const bodySchema = content["application/json"]?.schema as Json | undefined;
  const schema = bodySchema && typeof bodySchema.$ref === "string" ? resolve(document, bodySchema.$ref) : bodySchema;
  const body = Object.entries((schema?.properties ?? {}) as Record<string, Json>).flatMap(([name, property]) => [
    name,
    ...((property["x-aliases"] ?? []) as string[]),
  ]);
  return { query: new Set(query.map(normalized)), body: new Set(body.map(normalized)) };
}

function checkRestCall(t: Test, example: CurlExample & { file: string }): void {
  const found = matchOpenApiPath(Object.keys(paths), example.url.pathname);
  if (!found) return void t.fail(`${example.file} line ${example.line}: ${example.url.pathname} is no documented path`);
  // HEAD is answered as GET (route-table.ts).
  const method = example.method === "HEAD" ? "get" : example.method.toLowerCase();
  const operation = paths[found.template]![method];
  if (!operation)
    return void t.fail(`${example.file} line ${example.line}: ${example.method} ${found.template} is not documented`);
  t.pass(
    `${example.file} line ${example.line}: ${example.method} ${found.template} (${String(operation.operationId)})`,
  );
  const names = inputNames(operation);
  for (const name of new Set(example.url.searchParams.keys())) {
    t.ok(
      names.query.has(normalized(name)),
      `${example.file} line ${example.line}: query parameter ${name} is an input of ${String(operation.operationId)}`,
    );
  }
  if (example.body !== undefined) {
    const body = JSON.parse(example.body) as Json;
    for (const key of Object.keys(body)) {
      t.ok(
        names.body.has(normalized(key)),
        `${example.file} line ${example.line}: body key ${key} is an input of ${String(operation.operationId)}`,
      );
    }
  }
}

t.test("OpenAPI path templates: literals exactly, a variable one segment, concrete paths first", async (t) => {
  const templates = ["/a/{id}", "/a/limit", "/a/{id}/b", "/f/{name}.json", "/c"];
  const cases: [string, string | undefined, Record<string, string>?][] = [
    ["/a/17", "/a/{id}", { id: "17" }],
    ["/a/limit", "/a/limit", {}],
    ["/a/x%20y/b", "/a/{id}/b", { id: "x y" }],
    ["/f/doc.json", "/f/{name}.json", { name: "doc" }],
    ["/a/", undefined],
    ["/A/limit", undefined], // OpenAPI paths are case-sensitive, though the server is not
    ["/c/d", undefined],
    ["/c", "/c", {}],
  ];
  for (const [path, template, variables] of cases) {
    const found = matchOpenApiPath(templates, path);
    t.equal(found?.template, template, path);
    if (variables) t.same(found?.variables, variables, `${path}: variables`);
  }
});

t.test("curl lines are read as the shell reads them", async (t) => {
  const [get, post, head, put] = curlExamples(
    [
      "```sh",
      "B=http://h:1/p   # the base",
      'AUTH="Authorization: Bearer $TOKEN"',
      'curl -s -H "$AUTH" "$B/x?a=1&b=2"',
      'curl -s -d \'{"k":["$B"]}\' \\',
      "  ${B}/y",
      "curl -I $B/z # a comment",
      "curl -X PUT --url $B/w",
      "```",
      "```json",
      "curl http://not-a-command/",
      "```",
    ].join("\n"),
  );
  t.match(get, { line: 4, method: "GET", url: new URL("http://h:1/p/x?a=1&b=2") });
  t.match(post, { line: 5, method: "POST", url: new URL("http://h:1/p/y"), body: '{"k":["$B"]}' });
  t.match(head, { method: "HEAD", url: new URL("http://h:1/p/z") });
  t.match(put, { method: "PUT", url: new URL("http://h:1/p/w") });
  t.equal(curlExamples("```sh\ncurl http://a/\n```\n```json\ncurl http://b/\n```").length, 1, "only shell blocks");
  t.equal(
    curlExamples("```sh\nAUDIENCE=<the app's id>\ncurl http://a/\n```").length,
    1,
    "an unclosed quote ends with its line",
  );
});

t.test(
  "every curl example of README.md and docs/ is a documented operation with documented inputs, or a real endpoint outside the document",
  async (t) => {
    const examples = (await Promise.all(documentedFiles.map(examplesOf))).flat();
    const rest = examples.filter((e) => e.url.pathname.startsWith(API_PREFIX));
    t.ok(rest.filter((e) => e.file === "README.md").length >= 5, `README.md has REST examples (${rest.length} in all)`);
    for (const example of rest) checkRestCall(t, example);
    for (const example of examples.filter((e) => !rest.includes(e))) {
      const path = example.url.pathname;
      t.ok(
        PROCEDURES.has(path) || OTHER_ENDPOINTS.some((p) => p.test(path)),
        `${example.file} line ${example.line}: ${path} is a served procedure or endpoint`,
      );
    }
  },
);
