// Problem documents as the console reads them (src/console/web/src/api/problem.ts): the
// API's field problems (src/transcoding/problem-document.ts), RFC 7807's invalid-params,
// disclosure refusals, and whatever else a proxy may answer.
import t from "tap";
import { ApiProblem, problemFromBody } from "../../src/console/web/src/api/problem.js";
import { refusedFields } from "../../src/console/web/src/results/refused-fields.js";

t.test("a 400's field problems, as the API writes them", async (t) => {
  const response = new Response(
    JSON.stringify({
      status: 400,
      code: "invalid_argument",
      title: "Bad Request",
      detail: "coverageId: 999 is not a known coverage",
      errors: [
        { field: "coverageId", message: "999 is not a known coverage" },
        { field: "naics", message: '"5x" is not a 2- or 3-digit NAICS code', position: 1 },
      ],
    }),
    { status: 400, headers: { "content-type": "application/problem+json" } },
  );
  const problem = await ApiProblem.from(response);
  t.equal(problem.status, 400);
  t.equal(problem.detail, "coverageId: 999 is not a known coverage");
  t.same(problem.fieldProblems, [
    { field: "coverageId", message: "999 is not a known coverage" },
    { field: "naics", message: '"5x" is not a 2- or 3-digit NAICS code' },
  ]);
  t.notOk(problem.isRefusal);
});

t.test("RFC 7807's invalid-params, from a gateway", async (t) => {
  const problem = problemFromBody(400, {
    title: "Your request parameters didn't validate.",
    "invalid-params": [{ name: "age", reason: "must be a positive integer" }, { name: "color" }],
  });
  t.same(
    problem.fieldProblems,
    [{ field: "age", message: "must be a positive integer" }],
    "an entry without a reason is dropped",
  );
  t.equal(problem.detail, "Your request parameters didn't validate.", "the title when there is no detail");
});

t.test("a disclosure refusal is guidance, with its condition and threshold", async (t) => {
  const problem = problemFromBody(403, {
    detail: "too few companies",
    disclosure: { condition: "min_companies", threshold: 5 },
  });
  t.ok(problem.isRefusal);
  t.same(problem.disclosure, { condition: "min_companies", threshold: 5 });
  t.same(problem.fieldProblems, []);
});

t.test("not a problem document: the status alone", async (t) => {
  const problem = await ApiProblem.from(new Response("<html>Bad gateway</html>", { status: 502 }));
  t.equal(problem.detail, "HTTP 502");
  t.same(problem.fieldProblems, []);
  t.equal(problem.disclosure, null);
  t.same(problemFromBody(400, { errors: "not a list", disclosure: "no" }).fieldProblems, []);
});

t.test("refusedFields: each 400's field problems once, other problems ignored", async (t) => {
  const coverage = { field: "coverageId", message: "999 is not a known coverage" };
  const fields = refusedFields([
    problemFromBody(400, { errors: [coverage] }),
    problemFromBody(400, { errors: [{ field: "CoverageId", message: coverage.message }] }),
    problemFromBody(403, { disclosure: { condition: "min_companies", threshold: 5 } }),
    problemFromBody(503, { errors: [{ field: "x", message: "not an input problem" }] }),
    null,
  ]);
  t.same(fields, [coverage], "the GET forms' own casing of a field is the same field");
});
