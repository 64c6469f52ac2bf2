/**
 * A JSON number as its text. JSON.parse would turn 0.0049999999999999999 into the
 * double 0.005; amounts are exact decimals (SEMANTICS.md section 5), so the binder
 * gets the digits the caller wrote.
 */
export class NumberText {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/**
 * Containers nested deeper than this are refused. A request body is an object of
 * scalars and lists (depth 2); 64 is the `$filter` parser's limit too.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Object members (keys) in the whole body beyond this are refused. A request has a
 * dozen; 60,000 distinct unknown keys, which the binder would ignore, took 15-40 ms
 * to read into maps, where any other 1 MiB body takes a few.
 */
export const MAX_JSON_MEMBERS = 1_000;

/** Why a body is not JSON the service reads; the message is for the caller, with a position. */
export class JsonBodyError extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** JSON's whitespace (RFC 8259, section 2), from `lastIndex` on. */
const SPACES = /[ \t\n\r]*/y;
/** Characters JSON forbids unescaped inside a string (RFC 8259, section 7): those below U+0020. */
const CONTROL = /[^\u0020-\uffff]/;

/** A JSON object: its members in order, a repeated key keeping its last value. */
export type JsonObject = Map<string, unknown>;

type Container = unknown[] | JsonObject;

/**
 * Parses a JSON body (RFC 8259): numbers as NumberText, objects as JsonObject maps (no
 * prototype to pollute, and faster than a plain object's with many keys);
 * a repeated key keeps its last value, as JSON.parse does. Iterative, so no nesting can
 * exhaust the stack, and linear in the text: strings are found with indexOf and decoded
 * natively, so 1 MiB costs a few milliseconds whatever its shape (lossless-json, used
 * before, recursed until the stack overflowed on deep input and took 57 ms over one
 * long string).
 */
export function parseJsonBody(text: string): unknown {
  const reader = new JsonReader(text);
  const value = reader.document();
  reader.skipSpace();
  if (reader.at < text.length) throw reader.unexpected();
  return value;
}

class JsonReader {
  at = 0;
  /** Object members read so far. */
  private members = 0;
  /** Whether any string could hold a control character: compact JSON has none anywhere. */
  private readonly controls: boolean;

  constructor(private readonly text: string) {
    this.controls = CONTROL.test(text);
  }

  /** One value, its containers read with a stack of their own rather than by recursion. */
  document(): unknown {
    const open: Container[] = [];
    const keys: (string | undefined)[] = []; // the pending key of each open object; undefined for an array
    for (;;) {
      this.skipSpace();
      let value: unknown;
      const c = this.text.charCodeAt(this.at);
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (open.length === MAX_JSON_DEPTH)
          throw new JsonBodyError(`is nested deeper than ${MAX_JSON_DEPTH} levels (at ${this.at})`);
        this.at++;
        const isObject = c === OPEN_OBJECT;
        this.skipSpace();
        if (this.text.charCodeAt(this.at) === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          this.at++;
          value = isObject ? new Map() : [];
        } else {
          open.push(isObject ? new Map() : []);
          keys.push(isObject ? this.key() : undefined);
          continue; // on to its first member
        }
      } else {
        value = this.scalar();
      }
      // Store the value in its container, then close every container that ends here.
      for (;;) {
        const container = open[open.length - 1];
        if (!container) return value;
        const key = keys[keys.length - 1];
        if (key === undefined) (container as unknown[]).push(value);
        else (container as JsonObject).set(key, value);
        this.skipSpace();
        const next = this.text.charCodeAt(this.at);
        if (next === COMMA) {
          this.at++;
          if (key !== undefined) keys[keys.length - 1] = this.key();
          break;
        }
        if (next !== (key === undefined ? CLOSE_ARRAY : CLOSE_OBJECT)) throw this.unexpected();
        this.at++;
        open.pop();
        keys.pop();
        value = container;
      }
    }
  }

  skipSpace(): void {
    if (!(this.text.charCodeAt(this.at) <= 0x20)) return; // no space here, as before most tokens
    SPACES.lastIndex = this.at; // a long run is skipped natively
    SPACES.test(this.text);
    this.at = SPACES.lastIndex;
  }

  unexpected(): JsonBodyError {
    if (this.at >= this.text.length) return new JsonBodyError(`ends too early (at ${this.text.length})`);
    return new JsonBodyError(`unexpected ${JSON.stringify(this.text[this.at])} at ${this.at}`);
  }

  /** A member's key and its colon. */
  private key(): string {
    if (++this.members > MAX_JSON_MEMBERS)
      throw new JsonBodyError(`has more than ${MAX_JSON_MEMBERS} object members (at ${this.at})`);
    this.skipSpace();
    if (this.text.charCodeAt(this.at) !== QUOTE) throw this.unexpected();
    const key = this.string();
    this.skipSpace();
    if (this.text.charCodeAt(this.at) !== COLON) throw this.unexpected();
    this.at++;
    return key;
  }

  private scalar(): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) return this.string();
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number();
    const literal = LITERALS.get(c);
    if (!literal || !this.text.startsWith(literal[0], this.at)) throw this.unexpected();
    this.at += literal[0].length;
    return literal[1];
  }

  private string(): string {
    const { text } = this;
    const start = this.at; // the opening quote
    let end = text.indexOf('"', start + 1);
    if (end < 0) throw new JsonBodyError(`has an unterminated string (at ${start})`);
    const plain = text.slice(start + 1, end);
    // Searched within the string only: a search of the whole text per string would be quadratic.
    if (!plain.includes("\\")) {
      if (this.controls && CONTROL.test(plain))
        throw new JsonBodyError(`has a control character in the string at ${start}`);
      this.at = end + 1;
      return plain;
    }
    // The closing quote is the first one after an even run of backslashes.
    for (;;) {
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) break;
      end = text.indexOf('"', end + 1);
      if (end < 0) throw new JsonBodyError(`has an unterminated string (at ${start})`);
    }
    this.at = end + 1;
    try {
      return JSON.parse(text.slice(start, end + 1)) as string; // native: decodes and checks the escapes
    } catch {
      throw new JsonBodyError(`has an invalid escape or control character in the string at ${start}`);
    }
  }

  /** RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
  private number(): NumberText {
    const { text } = this;
    const start = this.at;
    let at = start;
    if (text.charCodeAt(at) === MINUS) at++;
    if (text.charCodeAt(at) === ZERO) at++;
    else if (!isDigit(text.charCodeAt(at))) return this.badNumber(at);
    else while (isDigit(text.charCodeAt(at))) at++;
    if (text.charCodeAt(at) === DOT) {
      if (!isDigit(text.charCodeAt(++at))) return this.badNumber(at);
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45) {
      const sign = text.charCodeAt(++at);
      if (sign === 0x2b || sign === MINUS) at++;
      if (!isDigit(text.charCodeAt(at))) return this.badNumber(at);
      while (isDigit(text.charCodeAt(at))) at++;
    }
    this.at = at;
    return new NumberText(text.slice(start, at));
  }

  private badNumber(at: number): never {
    this.at = at;
    throw this.unexpected();
  }
}

/** The literal names, by their first character. */
const LITERALS = new Map<number, readonly [string, unknown]>([
  [0x74, ["true", true]],
  [0x66, ["false", false]],
  [0x6e, ["null", null]],
]);

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}
