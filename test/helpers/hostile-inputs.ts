import type { DescMessage } from "@bufbuild/protobuf";
import { getOption } from "@bufbuild/protobuf";
import { alias } from "../../gen/commercialpolicybenchmark/v2/options_pb.js";
import type { SeededRandom } from "./seeded-random.js";

/**
 * Random, oversized and deeply nested inputs for a request message, as a REST caller
 * could spell them: query pairs, JSON bodies, form bodies and bytes that are no JSON.
 * Each stays within about `maxChars`, so a body can be sized under the 1 MiB limit
 * (percent-encoding may take a form body over it: a 413, a 4xx like any other).
 */

/** List items that differ: 1, 2, 3, ...; or NAICS-like codes 10, 11, ... 999. */
const COUNTING = Symbol("counting");
const NAICS = Symbol("naics");
type ListItem = string | typeof COUNTING | typeof NAICS;

/** Short values of every kind a field could be sent. */
const SCALARS = [
  "52",
  "524",
  "5",
  "5241",
  "0",
  "-1",
  "11",
  "1e3",
  "1e999",
  "0.005",
  "-0.004",
  "NaN",
  "Infinity",
  "0x10",
  "１２",
  "",
  " ",
  ",",
  "Revenues",
  "market_cap",
  "Employees",
  "All",
  "PUB",
  "true",
  "null",
  "é",
  "😀",
  "\u0000",
  "'; drop table companies; --",
  "CompanyName eq 'Acme'",
  "startswith(CompanyName,'A')",
  "Id desc",
  "9223372036854775808",
  String(2 ** 53 + 1),
];
const JSON_SCALARS = [
  ...SCALARS.map((text) => JSON.stringify(text)),
  "0",
  "-0",
  "1e400",
  "0.0049999999999999999",
  "true",
  "false",
  "null",
  "{}",
  "[]",
  "[[1]]",
  '{"a":1}',
];
/** List lengths about each limit (max_items in options.proto), and far beyond. */
const LENGTHS = [0, 1, 2, 99, 100, 101, 999, 1000, 1001, 1099, 1100, 1101, 10_000, 100_000, 400_000];
/**
 * A valid peer group, sent under the hostile members (a repeated key keeps its last
 * value), so that an oversized list often meets an otherwise valid request and reaches
 * the engines and PostgreSQL.
 */
const VALID_GROUP: [string, string][] = [
  ["naics", "52"],
  ["coverageId", "1"],
  ["exposureRangeLow", "0"],
  ["exposureRangeHigh", "10000000"],
];

export function createHostileInputs(random: SeededRandom) {
  /** A field name as a caller may spell it: JSON name or alias in any case, with spaces, or unknown. */
  function fieldName(schema: DescMessage): string {
    if (random.chance(0.1))
      return random.pick(["whatever", "__proto__", "constructor", "", " ", "naics[]", "$FILTER", "lob id"]);
    const field = random.pick(schema.fields);
    const name = random.pick([field.jsonName, ...getOption(field, alias)]);
    return random.chance(0.3) ? name.toUpperCase() : random.chance(0.2) ? name.replace(/(.)/, "$1 ") : name;
  }

  /** A query or form value: a scalar, a comma list of some length, or one long text. */
  function textValue(maxChars: number): string {
    maxChars = Math.max(0, maxChars);
    const kind = random.int(3);
    if (kind === 0) return random.pick(SCALARS);
    if (kind === 1)
      return listOf(
        random.pick<ListItem>(["52", "11", "PUB", "x", "", " 3 ", "0", COUNTING, NAICS]),
        maxChars,
        String,
      ).join(",");
    return random.pick(["5", "a", ",", " ", "(", "'", "é"]).repeat(random.int(maxChars));
  }

  /** A JSON value's text: a scalar, a list of some length, a long string, or nesting of any depth. */
  function jsonValue(maxChars: number): string {
    maxChars = Math.max(2, maxChars);
    const kind = random.int(5);
    if (kind === 0) return random.pick(JSON_SCALARS);
    if (kind === 1)
      return `[${listOf(random.pick<ListItem>([...JSON_SCALARS, COUNTING, NAICS]), maxChars - 2, JSON.stringify).join(",")}]`;
    if (kind === 2) return JSON.stringify(textValue(maxChars - 2));
    if (kind === 3) return nested(random.int(maxChars / 2));
    return `{${Array.from({ length: random.int(4) }, () => `${JSON.stringify(random.pick(SCALARS))}:${random.pick(JSON_SCALARS)}`).join(",")}}`;
  }

  /**
   * Items of a list of a random length, cut to fit `maxChars`: one text repeated, or
   * ones that differ (1, 2, 3, ... or NAICS-like codes), which no deduplication shrinks.
   */
  function listOf(
    item: ListItem,
    maxChars: number,
    codeText: (code: string) => string,
    length = random.pick(LENGTHS),
  ): string[] {
    const text = (i: number) =>
      item === COUNTING ? String(i + 1) : item === NAICS ? codeText(String(10 + (i % 990))) : item;
    const items: string[] = [];
    for (let i = 0, chars = 0; i < length && (chars += text(i).length + 1) <= maxChars; i++) items.push(text(i));
    return items;
  }

  /** Arrays or objects nested `depth` deep, closed or (sometimes) left open. */
  function nested(depth: number): string {
    const [open, close] = random.pick([
      ["[", "]"],
      ['{"a":', "}"],
      ['[{"b":', "}]"],
    ]);
    const inner = random.pick(["1", "[]", '"52"', ""]);
    const levels = Math.max(1, Math.floor(depth / open.length));
    return `${open.repeat(levels)}${inner}${random.chance(0.9) ? close.repeat(levels) : ""}`;
  }

  /** Query pairs for a GET, about `maxChars` long in all. */
  function queryPairs(schema: DescMessage, maxChars: number): [string, string][] {
    const pairs: [string, string][] = random.chance(0.6) ? validBase(schema) : [];
    const list = random.chance(0.2) ? longList(schema, maxChars) : undefined;
    if (list) {
      // As one comma list, or as the same name repeated.
      const spelled: [string, string][] = random.chance(0.5)
        ? [[list.name, list.items.join(",")]]
        : list.items.map((item) => [list.name, item]);
      return [...pairs, ...spelled];
    }
    const count = 1 + random.int(random.chance(0.1) ? 2000 : 8);
    for (let i = 0; i < count; i++)
      pairs.push([fieldName(schema), textValue(Math.max(8, Math.floor(maxChars / count)))]);
    return pairs;
  }

  /** A POST body's text of at most about `maxChars`: JSON of any shape, form pairs, or bytes that are neither. */
  function body(schema: DescMessage, maxChars: number): string {
    const list = random.chance(0.25) ? longList(schema, maxChars) : undefined;
    if (list) {
      // The hazard itself: a valid request but for one long list of differing items.
      return JSON.stringify(
        Object.fromEntries([...validBase(schema), [list.name, random.chance(0.5) ? list.items.join(",") : list.items]]),
      );
    }
    const kind = random.int(9);
    if (kind === 0) return nested(random.int(maxChars));
    if (kind === 1) return new URLSearchParams(queryPairs(schema, maxChars)).toString();
    if (kind === 2)
      return random.pick([
        "",
        " ",
        "{",
        "[1,2]",
        '"x"',
        "null",
        '{"naics": [52',
        "=",
        "&&&",
        "\u0000\u0001",
        "{}".repeat(random.int(maxChars / 2)),
      ]);
    const members = 1 + random.int(6);
    const base = random.chance(0.6)
      ? validBase(schema).map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`)
      : [];
    const entries = [
      ...base,
      ...Array.from(
        { length: members },
        () => `${JSON.stringify(fieldName(schema))}: ${jsonValue(Math.floor(maxChars / members))}`,
      ),
    ];
    const text = `{${entries.join(", ")}}`;
    return kind === 3 ? text.slice(0, random.int(text.length)) : text; // cut short: malformed JSON
  }

  /** One list field of the message, and as many differing valid-looking items as fit. */
  function longList(schema: DescMessage, maxChars: number): { name: string; items: string[] } | undefined {
    const lists = schema.fields.filter((field) => field.fieldKind === "list");
    if (lists.length === 0) return undefined;
    const field = random.pick(lists);
    const item: ListItem =
      field.jsonName === "naics" ? NAICS : field.jsonName === "lineOfBusinessId" ? COUNTING : "PUB";
    return { name: field.jsonName, items: listOf(item, maxChars, String, Infinity) };
  }

  /** The valid peer group, where the message has one. */
  function validBase(schema: DescMessage): [string, string][] {
    return schema.fields.some((field) => field.jsonName === "naics") ? [...VALID_GROUP] : [];
  }

  return { queryPairs, body };
}
