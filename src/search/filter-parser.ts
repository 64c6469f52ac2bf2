import {
  PROPERTIES,
  QuerySyntaxError,
  type ComparisonOperator,
  type Filter,
  type FilterLiteral,
  type FilterValue,
  type StringTest,
  type StringTransform,
} from "./filter-syntax.js";
import { tokenize, type Token } from "./filter-tokens.js";

const COMPARISONS = new Set<string>(["eq", "ne", "gt", "ge", "lt", "le"]);
const TESTS = new Set<string>(["startswith", "endswith", "contains"]);
const TRANSFORMS = new Set<string>(["tolower", "toupper", "trim"]);
const MAX_DEPTH = 64;
const INT64_MAX = 2n ** 63n - 1n;

/** Longest `$filter` accepted, in code points. */
const MAX_FILTER_LENGTH = 4096;

/**
 * Parses a `$filter` into a typed tree, by recursive descent (SEMANTICS.md section
 * 10): `or` binds loosest, then `and`, then `not`; comparisons and functions bind
 * tightest. Names are case-insensitive. Anything outside the subset throws a
 * QuerySyntaxError naming the token and its position.
 */
export function parseFilter(text: string): Filter {
  // Code points are at least half the UTF-16 units: a longer text is refused before it is spread.
  const length = text.length > 2 * MAX_FILTER_LENGTH ? text.length : [...text].length;
  if (length > MAX_FILTER_LENGTH)
    throw new QuerySyntaxError(`longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
  const parser = new FilterParser(tokenize(text));
  const filter = parser.parseOr(0);
  parser.expectEnd();
  return filter;
}

class FilterParser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parseOr(depth: number): Filter {
    let left = this.parseAnd(depth);
    while (this.isWord("or")) {
      this.next();
      left = { kind: "or", left, right: this.parseAnd(depth) };
    }
    return left;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== "end") throw unexpected(token);
  }

  private parseAnd(depth: number): Filter {
    let left = this.parseNot(depth);
    while (this.isWord("and")) {
      this.next();
      left = { kind: "and", left, right: this.parseNot(depth) };
    }
    return left;
  }

  private parseNot(depth: number): Filter {
    if (this.isWord("not")) {
      const token = this.next();
      if (depth >= MAX_DEPTH) throw new QuerySyntaxError("nested too deeply", token.position);
      return { kind: "not", operand: this.parseNot(depth + 1) };
    }
    return this.parsePrimary(depth);
  }

  private parsePrimary(depth: number): Filter {
    const token = this.peek();
    if (token.kind === "punctuation" && token.text === "(") {
      if (depth >= MAX_DEPTH) throw new QuerySyntaxError("nested too deeply", token.position);
      this.next();
      const inner = this.parseOr(depth + 1);
      this.expectPunctuation(")");
      return inner;
    }
    if (token.kind === "word" && TESTS.has(token.text.toLowerCase()) && this.isPunctuation("(", 1)) {
      this.next();
      this.next();
      const subject = this.parseString();
      this.expectPunctuation(",");
      const pattern = this.parseString();
      this.expectPunctuation(")");
      return { kind: "test", fn: token.text.toLowerCase() as StringTest, subject, pattern };
    }
    const left = this.parseValue();
    const operator = this.peek();
    if (operator.kind === "word" && operator.text.toLowerCase() === "in") {
      this.next();
      return { kind: "in", value: left, list: this.parseList(left) };
    }
    if (operator.kind !== "word" || !COMPARISONS.has(operator.text.toLowerCase())) {
      throw operator.kind === "end"
        ? new QuerySyntaxError("expected a comparison operator", operator.position)
        : new QuerySyntaxError(`expected a comparison operator instead of '${operator.text}'`, operator.position);
    }
    this.next();
    const rightToken = this.peek();
    const right = this.parseValue();
    const op = operator.text.toLowerCase() as ComparisonOperator;
    if ((left.type === "null" || right.type === "null") && op !== "eq" && op !== "ne") {
      throw new QuerySyntaxError(`'${operator.text}' cannot compare with null`, operator.position);
    }
    if (left.type !== "null" && right.type !== "null" && left.type !== right.type) {
      throw new QuerySyntaxError(`'${rightToken.text}' is not ${article(left.type)}`, rightToken.position);
    }
    return { kind: "compare", operator: op, left, right };
  }

  private parseList(value: FilterValue): FilterLiteral[] {
    this.expectPunctuation("(");
    const list: FilterLiteral[] = [];
    do {
      const token = this.peek();
      const item = this.parseValue();
      if (item.kind !== "string" && item.kind !== "integer")
        throw new QuerySyntaxError(`'${token.text}' is not a literal`, token.position);
      if (value.type !== "null" && item.type !== value.type)
        throw new QuerySyntaxError(`'${token.text}' is not ${article(value.type)}`, token.position);
      list.push(item);
    } while (this.isPunctuation(",") && this.next());
    this.expectPunctuation(")");
    return list;
  }

  /** A value that must be a string (function arguments). */
  private parseString(): FilterValue {
    const token = this.peek();
    const value = this.parseValue();
    if (value.type !== "string") throw new QuerySyntaxError(`'${token.text}' is not a string`, token.position);
    return value;
  }

  private parseValue(): FilterValue {
    const token = this.next();
    switch (token.kind) {
      case "string":
        return { kind: "string", value: token.value, type: "string" };
      case "integer":
        if (token.value > INT64_MAX || token.value < -INT64_MAX - 1n)
          throw new QuerySyntaxError(`'${token.text}' is out of range`, token.position);
        return { kind: "integer", value: token.value, type: "integer" };
      case "punctuation":
      case "end":
        throw unexpected(token);
    }
    const name = token.text.toLowerCase();
    if (name === "null") return { kind: "null", type: "null" };
    if (this.isPunctuation("(")) {
      if (TESTS.has(name)) throw new QuerySyntaxError(`function '${token.text}' is not a value`, token.position);
      if (!TRANSFORMS.has(name)) throw new QuerySyntaxError(`unknown function '${token.text}'`, token.position);
      this.next();
      const argument = this.parseString();
      this.expectPunctuation(")");
      return { kind: "transform", fn: name as StringTransform, argument, type: "string" };
    }
    const property = PROPERTIES[name];
    if (!property) throw new QuerySyntaxError(`unknown property '${token.text}'`, token.position);
    return { kind: "property", ...property };
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== "end") this.index++;
    return token;
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token.kind === "word" && token.text.toLowerCase() === word;
  }

  private isPunctuation(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === "punctuation" && token.text === text;
  }

  private expectPunctuation(text: "(" | ")" | ","): void {
    const token = this.peek();
    if (!this.isPunctuation(text)) {
      throw token.kind === "end"
        ? new QuerySyntaxError(`expected '${text}'`, token.position)
        : new QuerySyntaxError(`expected '${text}' instead of '${token.text}'`, token.position);
    }
    this.next();
  }
}

function unexpected(token: Token): QuerySyntaxError {
  return token.kind === "end"
    ? new QuerySyntaxError("unexpected end of filter", token.position)
    : new QuerySyntaxError(`unexpected '${token.text}'`, token.position);
}

function article(type: "string" | "integer"): string {
  return type === "string" ? "a string" : "an integer";
}
