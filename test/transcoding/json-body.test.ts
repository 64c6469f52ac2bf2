// The REST body parser: JSON exactly as RFC 8259 and JSON.parse read it (numbers kept
// as their text), a fixed depth limit with a plain message, and a cost linear in the text.
import t from "tap";
import {
  JsonBodyError,
  MAX_JSON_DEPTH,
  MAX_JSON_MEMBERS,
  NumberText,
  parseJsonBody,
} from "../../src/transcoding/json-body.js";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";
import { jsonParseOracle } from "./helpers/json-parse-oracle.js";

const NUMBERS = [
  "0",
  "-0",
  "7",
  "-12",
  "0.5",
  "-0.0049999999999999999",
  "1e3",
  "2E-7",
  "1.5e+300",
  "123456789012345678901234567890",
  "1e999",
];
const STRINGS = [
  "",
  "52",
  "a b",
  "é",
  "😀",
  '\\"',
  "\\\\",
  "\\/",
  "\\n\\t\\r\\b\\f",
  "\\u0000",
  "\\uD83D\\uDE00",
  "\\u00e9x",
  "__proto__",
  'a\\\\\\"b',
];
const SPACE = ["", " ", "\n", "\t", "\r\n  "];

/** A random JSON text and the value it must parse to: numbers as NumberText, objects as maps. */
function randomJson(random: SeededRandom, depth = 0): [string, unknown] {
  const pad = () => random.pick(SPACE);
  const kind = depth > 3 ? random.int(4) : random.int(6);
  if (kind === 0) {
    const text = random.pick(NUMBERS);
    return [text, new NumberText(text)];
  }
  if (kind === 1) {
    const text = `"${random.pick(STRINGS)}"`;
    return [text, JSON.parse(text)];
  }
  if (kind === 2)
    return random.pick<[string, unknown]>([
      ["true", true],
      ["false", false],
    ]);
  if (kind === 3) return ["null", null];
  const members = Array.from({ length: random.int(4) }, () => randomJson(random, depth + 1));
  if (kind === 4)
    return [
      `[${pad()}${members.map(([text]) => `${text}${pad()}`).join(`,${pad()}`)}]`,
      members.map(([, value]) => value),
    ];
  const object = new Map<string, unknown>();
  const texts = members.map(([text, value]) => {
    const key = `"${random.pick(STRINGS)}"`;
    object.set(JSON.parse(key) as string, value);
    return `${key}${pad()}:${pad()}${text}${pad()}`;
  });
  return [`{${pad()}${texts.join(`,${pad()}`)}}`, object];
}

function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A parsed body as JSON.parse gives it: numbers as numbers, objects as objects. */
function asParsed(value: unknown): unknown {
  if (value instanceof NumberText) return Number(value.text);
  if (Array.isArray(value)) return value.map(asParsed);
  if (!(value instanceof Map)) return value;
  const object: Record<string, unknown> = {};
  for (const [key, member] of value as Map<string, unknown>) {
    Object.defineProperty(object, key, {
      value: asParsed(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

t.test("reads what JSON.parse reads, keeping each number's digits", async (t) => {
  const random = createSeededRandom("json-body valid");
  for (let i = 0; i < 2000; i++) {
    const [text, expected] = randomJson(random);
    const spaced = `${random.pick(SPACE)}${text}${random.pick(SPACE)}`;
    t.strictSame(parseJsonBody(spaced), expected, spaced, { diagnostic: false });
  }
  t.strictSame(
    parseJsonBody('{"a": 1, "b": 2, "a": 3}'),
    new Map([
      ["a", new NumberText("3")],
      ["b", new NumberText("2")],
    ]),
    "a repeated key keeps its last value",
  );
  t.strictSame(
    parseJsonBody('{"__proto__": {}}'),
    new Map([["__proto__", new Map()]]),
    "__proto__ is a key like any other",
  );
});

t.test("refuses exactly what JSON.parse refuses, with a JsonBodyError", async (t) => {
  const random = createSeededRandom("json-body broken");
  const noise = ['"', "\\", "{", "}", "[", "]", ",", ":", "-", ".", "e", "0", "x", "\u0001", " ", "tru", "nul"];
  for (let i = 0; i < 3000; i++) {
    const [text] = randomJson(random);
    const at = random.int(text.length + 1);
    const cut = random.int(3);
    const broken = `${text.slice(0, at)}${random.chance(0.7) ? random.pick(noise) : ""}${text.slice(at + cut)}`;
    let expected: unknown;
    try {
      expected = jsonParseOracle(broken);
    } catch {
      t.ok(thrownBy(() => parseJsonBody(broken)) instanceof JsonBodyError, broken, { diagnostic: false });
      continue;
    }
    t.same(asParsed(parseJsonBody(broken)), expected, broken, { diagnostic: false });
  }
});

t.test("the oracle reads escaped keys right where V8's JSON.parse may not", async (t) => {
  JSON.parse(String.raw`{"a":1,"\\":2}`); // on an affected V8, later reads of "\/" here give "\\"
  t.strictSame(jsonParseOracle(String.raw`{"a":1,"\/":2}`), { a: 1, "/": 2 });
  t.strictSame(jsonParseOracle(String.raw`{"a":1,"\u0000":2}`), { a: 1, "\u0000": 2 });
  t.strictSame(jsonParseOracle(String.raw`{"\u0061":1,"a":2,"\"":[{"\\": "\""}]}`), { a: 2, '"': [{ "\\": '"' }] });
  t.throws(() => jsonParseOracle(String.raw`{"a":1,}`));
});

t.test("nesting beyond the limit is refused with a plain message, however deep", async (t) => {
  const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  t.doesNotThrow(() => parseJsonBody(nested(MAX_JSON_DEPTH)), `${MAX_JSON_DEPTH} levels are read`);
  const tooDeep = thrownBy(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1)));
  t.ok(tooDeep instanceof JsonBodyError);
  t.equal((tooDeep as Error).message, `is nested deeper than ${MAX_JSON_DEPTH} levels (at ${MAX_JSON_DEPTH})`);
  for (const deep of [nested(200_000), `${'{"a":'.repeat(150_000)}1${"}".repeat(150_000)}`, "[".repeat(1_000_000)]) {
    const started = performance.now();
    t.throws(() => parseJsonBody(deep), { message: /^is nested deeper than 64 levels/ });
    t.ok(performance.now() - started < 500, "refused at once"); // loose: a loaded machine; the old parser took as long to overflow
  }
});

t.test("object members beyond the limit, in the whole body, are refused", async (t) => {
  const members = (n: number, at = 0) => Array.from({ length: n }, (_, i) => `"k${at + i}":0`).join(",");
  t.equal(
    (parseJsonBody(`{${members(MAX_JSON_MEMBERS)}}`) as Map<string, unknown>).size,
    MAX_JSON_MEMBERS,
    `${MAX_JSON_MEMBERS} are read`,
  );
  const tooMany = thrownBy(() => parseJsonBody(`{${members(MAX_JSON_MEMBERS + 1)}}`));
  t.ok(tooMany instanceof JsonBodyError);
  t.match((tooMany as Error).message, new RegExp(`^has more than ${MAX_JSON_MEMBERS} object members \\(at \\d+\\)$`));
  const spread = `[${Array.from({ length: 11 }, (_, i) => `{${members(100, i * 100)}}`).join(",")}]`;
  t.ok(thrownBy(() => parseJsonBody(spread)) instanceof JsonBodyError, "counted over every object: 11 of 100");
  const sixtyThousand = `{${members(60_000)}}`;
  const started = performance.now();
  t.ok(thrownBy(() => parseJsonBody(sixtyThousand)) instanceof JsonBodyError, "60,000 keys");
  t.ok(performance.now() - started < 100, "refused at once"); // it stops after the first thousand; loose, for a loaded machine
});

// A bound no quadratic cost meets (a search of the whole text per string took minutes
// here), loose enough for a loaded CI machine: a few ms is typical.
const LINEAR_MS = 500;

t.test("1 MiB of any shape parses in linear time", async (t) => {
  const many = (n: number, item: (i: number) => string) => Array.from({ length: n }, (_, i) => item(i)).join(",");
  const shapes: Record<string, string> = {
    numbers: `{"lineOfBusinessId": [${many(130_000, (i) => String(i))}]}`,
    "one long string": `{"naics": "${"5".repeat(1_000_000)}"}`,
    "short strings, one escape at the end": `{"naics": [${many(100_000, () => '"52"')}], "x": "\\n"}`,
    "escaped quotes": `{"naics": "${'\\"'.repeat(500_000)}"}`,
    "backslash runs": `{"naics": "${'\\\\\\\\\\\\\\\\\\"'.repeat(100_000)}"}`,
    "many objects": `[${many(MAX_JSON_MEMBERS, (i) => `{"k${i}": [${many(100, String)}]}`)}]`,
    whitespace: `{${" ".repeat(1_000_000)}}`,
  };
  for (const [shape, text] of Object.entries(shapes)) {
    t.ok(text.length > 250_000, `${shape}: a large body`);
    parseJsonBody(text); // warm
    const started = performance.now();
    parseJsonBody(text);
    const ms = performance.now() - started;
    t.ok(ms < LINEAR_MS, `${shape}: ${ms.toFixed(1)} ms for ${(text.length / 1024).toFixed(0)} KiB`);
  }
});
