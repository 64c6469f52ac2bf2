import t from "tap";
import { QuerySyntaxError } from "../../src/search/filter-syntax.js";
import { DEFAULT_ORDER, MAX_ORDER_TERMS, parseOrderBy } from "../../src/search/order-by.js";

t.test("$orderBy terms, names and directions in any case", async (t) => {
  t.same(parseOrderBy(""), DEFAULT_ORDER);
  t.same(parseOrderBy("  "), DEFAULT_ORDER);
  t.same(parseOrderBy("companyname DESC, id"), [
    { property: "CompanyName", descending: true },
    { property: "Id", descending: false },
  ]);
  t.same(parseOrderBy("OrganizationType asc"), [{ property: "OrganizationType", descending: false }]);
});

t.test("bad $orderBy: the token and its position", async (t) => {
  const cases: [string, string, number][] = [
    ["Name", "unknown property 'Name'", 0],
    ["Id up", "expected asc or desc instead of 'up'", 3],
    ["Id,, CompanyName", "expected a property", 3],
    ["Id asc desc", "unexpected 'desc'", 7],
    ["Ünïcode, Id", "unknown property 'Ünïcode'", 0],
    ["Id, Révenue", "unknown property 'Révenue'", 4],
  ];
  for (const [text, message, position] of cases)
    t.throws(() => parseOrderBy(text), new QuerySyntaxError(message, position), text);
});

t.test("at most MAX_ORDER_TERMS terms, and a cost linear in the text", async (t) => {
  const terms = (n: number) => Array.from({ length: n }, () => "Id").join(", ");
  t.equal(parseOrderBy(terms(MAX_ORDER_TERMS)).length, MAX_ORDER_TERMS);
  t.throws(
    () => parseOrderBy(terms(100_000)),
    new QuerySyntaxError(`more than ${MAX_ORDER_TERMS} terms`, 4 * MAX_ORDER_TERMS - 1),
    "refused at the first term too many",
  );
  // Each word's position used to be counted from the start of its term: quadratic in the words.
  const started = performance.now();
  t.throws(() => parseOrderBy(`Id asc ${"x ".repeat(500_000)}`), new QuerySyntaxError("unexpected 'x'", 7));
  t.ok(performance.now() - started < 500, "1 MiB of words (loose, for a loaded machine)");
});
