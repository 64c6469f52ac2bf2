import t from "tap";
import { parseFilter } from "../../src/search/filter-parser.js";
import { QuerySyntaxError } from "../../src/search/filter-syntax.js";

const name = { kind: "property", name: "CompanyName", type: "string" } as const;
const type = { kind: "property", name: "OrganizationType", type: "string" } as const;
const id = { kind: "property", name: "Id", type: "integer" } as const;
const str = (value: string) => ({ kind: "string", value, type: "string" }) as const;
const int = (value: bigint) => ({ kind: "integer", value, type: "integer" }) as const;

t.test("good filters and their trees", async (t) => {
  const cases: [string, unknown][] = [
    ["CompanyName eq 'Acme'", { kind: "compare", operator: "eq", left: name, right: str("Acme") }],
    ["companyname EQ 'O''Brien'", { kind: "compare", operator: "eq", left: name, right: str("O'Brien") }],
    ["Id ge -5", { kind: "compare", operator: "ge", left: id, right: int(-5n) }],
    ["startswith(CompanyName,'Acme')", { kind: "test", fn: "startswith", subject: name, pattern: str("Acme") }],
    [
      "CONTAINS(tolower(CompanyName), 'bank')",
      {
        kind: "test",
        fn: "contains",
        subject: { kind: "transform", fn: "tolower", argument: name, type: "string" },
        pattern: str("bank"),
      },
    ],
    ["OrganizationType in ('PUB', 'PRV')", { kind: "in", value: type, list: [str("PUB"), str("PRV")] }],
    ["Id eq null", { kind: "compare", operator: "eq", left: id, right: { kind: "null", type: "null" } }],
    [
      "trim(CompanyName) ne ''",
      {
        kind: "compare",
        operator: "ne",
        left: { kind: "transform", fn: "trim", argument: name, type: "string" },
        right: str(""),
      },
    ],
    // not binds tighter than and, and tighter than or
    [
      "not Id eq 1 and Id eq 2 or Id eq 3",
      {
        kind: "or",
        left: {
          kind: "and",
          left: { kind: "not", operand: { kind: "compare", operator: "eq", left: id, right: int(1n) } },
          right: { kind: "compare", operator: "eq", left: id, right: int(2n) },
        },
        right: { kind: "compare", operator: "eq", left: id, right: int(3n) },
      },
    ],
    [
      "not (Id eq 1 or Id eq 2)",
      {
        kind: "not",
        operand: {
          kind: "or",
          left: { kind: "compare", operator: "eq", left: id, right: int(1n) },
          right: { kind: "compare", operator: "eq", left: id, right: int(2n) },
        },
      },
    ],
    ["'Acme' eq CompanyName", { kind: "compare", operator: "eq", left: str("Acme"), right: name }],
    ["CompanyName eq 'Ünïcödé 😀'", { kind: "compare", operator: "eq", left: name, right: str("Ünïcödé 😀") }],
  ];
  for (const [text, tree] of cases) t.same(parseFilter(text), tree, text);
});

t.test("bad filters: the offending token and its position in code points", async (t) => {
  const cases: [string, string][] = [
    ["Revenue gt 5", "unknown property 'Revenue' at 0"],
    ["CompanyName eq 'x' and", "unexpected end of filter at 22"],
    ["CompanyName eq 'x", "unterminated string at 15"],
    ["CompanyName has 'x'", "expected a comparison operator instead of 'has' at 12"],
    ["CompanyName eq", "unexpected end of filter at 14"],
    ["Id eq 'x'", "''x'' is not an integer at 6"],
    ["CompanyName gt 5", "'5' is not a string at 15"],
    ["Id gt null", "'gt' cannot compare with null at 3"],
    ["length(CompanyName) eq 3", "unknown function 'length' at 0"],
    ["startswith(Id, '1')", "'Id' is not a string at 11"],
    ["startswith(CompanyName 'a')", "expected ',' instead of ''a'' at 23"],
    ["(Id eq 1", "expected ')' at 8"],
    ["Id eq 1)", "unexpected ')' at 7"],
    ["Id eq 1 ; drop table companies", "unexpected ';' at 8"],
    ["CompanyName eq 'a' -- comment", "unexpected '-' at 19"],
    ["Id eq 99999999999999999999", "'99999999999999999999' is out of range at 6"],
    ["Id in ('a')", "''a'' is not an integer at 7"],
    ["OrganizationType in (CompanyName)", "'CompanyName' is not a literal at 21"],
    ["😀 eq 1", "unexpected '😀' at 0"],
    ["CompanyName eq 'é' or Revenüe eq 1", "unknown property 'Revenüe' at 22"],
    ["CompanyName", "expected a comparison operator at 11"],
    ["Id eq 12abc", "unexpected '12abc' at 6"],
    ["startswith(CompanyName,'a') eq true", "unexpected 'eq' at 28"],
    ["contains(CompanyName, startswith(CompanyName, 'a'))", "function 'startswith' is not a value at 22"],
    ["", "unexpected end of filter at 0"],
    ["Id eq ０", "unexpected '０' at 6"],
  ];
  for (const [text, message] of cases) {
    t.throws(
      () => parseFilter(text),
      new QuerySyntaxError(message.replace(/ at \d+$/, ""), Number(/ at (\d+)$/.exec(message)![1])),
      text,
    );
    try {
      parseFilter(text);
    } catch (error) {
      t.equal((error as Error).message, message, `message of ${JSON.stringify(text)}`);
    }
  }
});

t.test("very long and deeply nested filters are refused, not recursed into", async (t) => {
  t.throws(() => parseFilter(`CompanyName eq '${"a".repeat(5000)}'`), {
    message: "longer than 4096 characters at 4096",
  });
  t.throws(() => parseFilter(`${"(".repeat(200)}Id eq 1${")".repeat(200)}`), { message: /^nested too deeply at \d+$/ });
  t.throws(() => parseFilter(`${"not ".repeat(200)}Id eq 1`), { message: /^nested too deeply at \d+$/ });
  t.ok(parseFilter(`${"(".repeat(30)}Id eq 1${")".repeat(30)}`), "reasonable nesting is fine");
});

t.test("a filter of 1 MiB, as gRPC may send, is refused by its length", async (t) => {
  t.throws(() => parseFilter(`CompanyName eq '${"a".repeat(1024 * 1024)}'`), {
    message: "longer than 4096 characters at 4096",
  });
});
