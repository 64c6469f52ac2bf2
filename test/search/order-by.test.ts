import t from "tap";
import { QuerySyntaxError } from "../../src/search/filter-syntax.js";
import { DEFAULT_ORDER, parseOrderBy } from "../../src/search/order-by.js";

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
  for (const [text, message, position] of cases) t.throws(() => parseOrderBy(text), new QuerySyntaxError(message, position), text);
});
