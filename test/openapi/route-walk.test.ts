// Walks every operation of the served /openapi.json against the real server (issue 28):
// - a request with exactly the inputs the document marks required is answered, not
//   refused: no input the document leaves optional is required by the service;
// - leaving out each required input is a 400 naming it;
// - each answer seen (200, 304, 400, 401, 404, 413) validates against the document,
//   with ajv (JSON Schema 2020-12) through test/helpers/openapi-answer-check.ts.
// The sample values are by input name, compared as the service compares names: an
// operation added with a required input this table lacks fails here until it is added.
import t from "tap";
import { createTestDatabase } from "../helpers/database.js";
import { startAuthenticatedServer } from "../helpers/authenticated-server.js";
import { createAnswerChecker, type SeenAnswer } from "../helpers/openapi-answer-check.js";
import { FIXTURE_AS_OF, insertAnalyticsFixture } from "../fixtures/analytics-fixture.js";
import {
  documentedOperations,
  inputKey as key,
  MISSING_ID,
  requestOf,
  requiredInputs as requiredOf,
  type DocumentedOperation as Operation,
} from "../helpers/openapi-operations.js";

type Json = { [key: string]: unknown };

t.test(
  "every route of the document: required inputs are what the service requires, and every answer validates",
  async (t) => {
    const { knex } = await createTestDatabase(t);
    await insertAnalyticsFixture(knex);
    // A dataset version, as `cpb serve` has: answers carry ETags, and 304s are possible.
    const { server, authorization } = await startAuthenticatedServer(t, knex, {
      asOf: FIXTURE_AS_OF,
      datasetVersion: () => 1,
    });
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    const checker = createAnswerChecker(document);
    const seen = new Map<number, number>();

    /** Sends a request built from `inputs` (by documented name), checks the answer against the document, and returns it. */
    async function send(
      op: Operation,
      inputs: Map<string, unknown>,
      extra: { headers?: Record<string, string>; body?: string; pathValue?: unknown } = {},
    ) {
      const { path, target, body } = requestOf(op, inputs, extra.pathValue);
      const url = `${server.url}${target}`;
      const init: RequestInit = { method: op.method, headers: { authorization, ...extra.headers } };
      if (op.method === "POST") init.body = extra.body ?? JSON.stringify(body);
      const response = await fetch(url, init);
      const answer: SeenAnswer = {
        method: op.method,
        path,
        status: response.status,
        headers: response.headers,
        body: await response.text(),
      };
      seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      t.same(checker.problems(answer), [], `${op.method} ${op.template}: the ${answer.status} validates`);
      return answer;
    }

    const operations = documentedOperations(document);
    // At least today's 13; operations added in new proto files are walked as well.
    t.ok(operations.length >= 13, `every operation of the REST face (${operations.length})`);
    for (const op of operations) {
      const name = `${op.method} ${op.template}`;
      const requiredInputs = requiredOf(op);

      const complete = await send(op, requiredInputs);
      t.equal(complete.status, 200, `${name}: the required inputs alone are answered`);
      const problems =
        complete.status === 400 ? ((JSON.parse(complete.body) as { errors?: { field: string }[] }).errors ?? []) : [];
      for (const optional of op.optional) {
        t.notOk(
          problems.some((problem) => key(problem.field) === key(optional)),
          `${name}: without the optional ${optional}, no 400 naming it`,
        );
      }

      const etag = complete.headers.get("etag");
      t.ok(etag, `${name}: the 200 carries an ETag`);
      if (etag)
        t.equal(
          (await send(op, requiredInputs, { headers: { "if-none-match": etag } })).status,
          304,
          `${name}: If-None-Match gives a 304`,
        );

      for (const input of op.required.filter((i) => i.in !== "path")) {
        const without = new Map(requiredInputs);
        without.delete(input.name);
        const refused = await send(op, without);
        t.equal(refused.status, 400, `${name}: without ${input.name}, a 400`);
        const fields = ((JSON.parse(refused.body) as { errors?: { field: string }[] }).errors ?? []).map((problem) =>
          key(problem.field),
        );
        // Problems name fields by their JSON name (SEMANTICS.md section 11), which the
        // limit-adequacy GET's `Naics` matches as the service matches names.
        t.ok(fields.includes(key(input.name)), `${name}: the 400 names ${input.name}`);
      }

      const anonymous = await fetch(`${server.url}${op.template.replace(/\{[^}]+\}/g, "1")}`, {
        method: op.method,
        ...(op.method === "POST" ? { body: "{}" } : {}),
      });
      const unauthenticated: SeenAnswer = {
        method: op.method,
        path: op.template.replace(/\{[^}]+\}/g, "1"),
        status: anonymous.status,
        headers: anonymous.headers,
        body: await anonymous.text(),
      };
      seen.set(401, (seen.get(401) ?? 0) + 1);
      t.equal(unauthenticated.status, 401, `${name}: no token, a 401`);
      t.same(checker.problems(unauthenticated), [], `${name}: the 401 validates`);

      if (op.required.some((input) => input.in === "path")) {
        t.equal(
          (await send(op, requiredInputs, { pathValue: MISSING_ID })).status,
          404,
          `${name}: no such record, a 404`,
        );
      }
      if (op.method === "POST") {
        const tooLarge = await send(op, requiredInputs, { body: `{"naics":"${"1".repeat(1_100_000)}"}` });
        t.equal(tooLarge.status, 413, `${name}: a body over 1 MiB, a 413`);
      }
    }
    t.same([...seen.keys()].sort(), [200, 304, 400, 401, 404, 413], "every status the walk meant to see was seen");
    t.comment(`answers checked: ${[...seen].map(([status, count]) => `${status}×${count}`).join(", ")}`);
  },
);
