import {
  create,
  getOption,
  ScalarType,
  type DescField,
  type DescMessage,
  type Message,
  type MessageShape,
} from "@bufbuild/protobuf";
import { alias, query_name } from "../../gen/commercialpolicybenchmark/v2/options_pb.js";
import { itemTextKey } from "../rpc/decimal-texts.js";
import type { InputProblem } from "../rpc/input-problems.js";
import { maxItemsOf, tooManyItems } from "../rpc/list-limits.js";
import { NumberText, type JsonObject } from "./json-body.js";
import { describe, readScalar, type ScalarValue } from "./scalar-values.js";

/**
 * Binds REST inputs (path variables, query parameters, a JSON body) to a request
 * message by reflection over its descriptor, as google/api/http.proto prescribes:
 * path variables bind to their fields; with `body: "*"` every other field comes from
 * the body, otherwise from the query string.
 *
 * Names are found as SEMANTICS.md section 11 reads them: the JSON name or an
 * `alias` option, case-insensitively and ignoring spaces; unknown names are ignored. Problems are collected, not thrown, so one answer lists them all.
 *
 * The cost is linear in the inputs, and a list stops being read at its `max_items`
 * limit (options.proto): 100,000 items cost no more than the limit's worth.
 */
export interface Binder<M extends Message = Message> {
  bind(inputs: BindingInputs): {
    message: M;
    problems: InputProblem[];
    /** The caller's decimal text of each `double` field, by JSON name (a double would round it). */
    decimalTexts: Map<string, string>;
  };
}

export interface BindingInputs {
  pathVariables: ReadonlyMap<string, string>;
  /** Name/value pairs in order, repeated names kept (query string or form body). */
  parameters?: Iterable<[string, string]>;
  /** A parsed JSON object body (json-body.ts reads objects as maps). */
  body?: JsonObject | Record<string, unknown>;
}

export function createBinder<Desc extends DescMessage>(schema: Desc): Binder<MessageShape<Desc>> {
  const fieldsByName = indexFields(schema);
  for (const field of schema.fields) {
    // Fail at start-up, not on the first long list: every list input has a documented limit.
    if (field.fieldKind === "list" && maxItemsOf(field) === undefined) {
      throw new Error(`${schema.typeName}.${field.name}: a list field of a request needs a max_items option`);
    }
  }
  return {
    bind({ pathVariables, parameters, body }) {
      const message = create(schema);
      const fields = message as unknown as Record<string, unknown>;
      const problems: InputProblem[] = [];
      const decimalTexts = new Map<string, string>();
      const values = new Map<DescField, unknown[]>();
      const collect = (name: string, value: unknown) => {
        const field = fieldsByName.get(normalizeName(name));
        if (!field || value === null) return; // unknown names are ignored; null means not given
        const given = values.get(field);
        if (given)
          given.push(value); // not copied: 100,000 repeated parameters were quadratic
        else values.set(field, [value]);
      };
      for (const [name, value] of parameters ?? []) collect(name, value);
      for (const [name, value] of body instanceof Map ? body : Object.entries(body ?? {})) collect(name, value);
      for (const [name, value] of pathVariables) {
        const field = schema.fields.find((f) => f.name === name)!;
        values.set(field, [value]);
      }
      for (const [field, inputs] of values) {
        const problem = assign(fields, field, inputs);
        if (problem) problems.push({ field: field.jsonName, ...problem });
        const text = decimalText(field, inputs);
        if (!problem && text !== undefined) decimalTexts.set(field.jsonName, text);
        if (!problem) keepItemTexts(field, inputs, decimalTexts);
      }
      return { message, problems, decimalTexts };
    },
  };
}

const SPACE = /\s/;

/** Lower-cased, without spaces: `lineOf Business` and `lineofbusiness` are one name. */
function normalizeName(name: string): string {
  return (SPACE.test(name) ? name.replace(/\s+/g, "") : name).toLowerCase(); // most names have no space: no copy
}

function indexFields(schema: DescMessage): Map<string, DescField> {
  const index = new Map<string, DescField>();
  for (const field of schema.fields) {
    // SEMANTICS.md 11: the spec's names and its aliases, and the name a query-form route
    // documents (options.proto `query_name`); any other name is ignored.
    for (const name of [field.jsonName, ...getOption(field, alias), getOption(field, query_name)]) {
      if (name !== "") index.set(normalizeName(name), field);
    }
  }
  return index;
}

type Problem = Omit<InputProblem, "field">;

function assign(message: Record<string, unknown>, field: DescField, inputs: unknown[]): Problem | undefined {
  if (field.fieldKind === "list" && field.listKind === "scalar") {
    const max = maxItemsOf(field)!; // createBinder checked
    const items: ScalarValue[] = [];
    for (const input of inputs) {
      for (const item of listItems(input)) {
        if (item === NOT_A_LIST)
          return { message: `${describe(inputs.length === 1 ? inputs[0] : inputs)} is not a list`, kind: "type" };
        if (items.length === max) return { message: tooManyItems(max) }; // the rest is never read
        const read = readScalar(field.scalar, item);
        if ("problem" in read) return { message: read.problem, kind: read.kind };
        items.push(read.value);
      }
    }
    message[field.localName] = items;
    return undefined;
  }
  if (field.fieldKind !== "scalar") return { message: "cannot be given over REST", kind: "type" };
  if (inputs.length > 1) return { message: "is given more than once", kind: "type" };
  const read = readScalar(field.scalar, inputs[0]);
  if ("problem" in read) return { message: read.problem, kind: read.kind };
  message[field.localName] = read.value;
  return undefined;
}

function decimalText(field: DescField, inputs: unknown[]): string | undefined {
  if (field.fieldKind !== "scalar" || (field.scalar !== ScalarType.DOUBLE && field.scalar !== ScalarType.FLOAT))
    return undefined;
  const input = inputs[0];
  return input instanceof NumberText ? input.text : typeof input === "string" ? input.trim() : undefined;
}

/** Each item's text of a list of doubles (the loss experience's limits), under `field[i]` (decimal-texts.ts). */
function keepItemTexts(field: DescField, inputs: unknown[], texts: Map<string, string>): void {
  if (field.fieldKind !== "list" || field.listKind !== "scalar" || field.scalar !== ScalarType.DOUBLE) return;
  let index = 0;
  for (const input of inputs)
    for (const item of listItems(input)) texts.set(itemTextKey(field.jsonName, index++), String(item));
}

/** An item that makes its input no list: an object, a boolean, an array in an array. */
const NOT_A_LIST = Symbol("not a list");

/**
 * The items of a list input, one at a time, so that a reader stopping at a limit
 * never splits or copies the rest: text is split on commas (inside an array too), a
 * number is one item written as its digits, null is skipped.
 */
function* listItems(input: unknown): Generator<unknown> {
  if (!Array.isArray(input)) return yield* itemsOf(input);
  for (const element of input) {
    if (Array.isArray(element)) yield NOT_A_LIST;
    else if (typeof element === "string" && !element.includes(",")) {
      // The usual array item, read without a generator of its own.
      const item = element.trim();
      if (item !== "") yield item;
    } else if (element !== null) yield* itemsOf(element);
  }
}

/** The items of one value that is not an array. */
function* itemsOf(value: unknown): Generator<unknown> {
  if (typeof value === "string") yield* commaItems(value);
  else if (value instanceof NumberText) yield value.text;
  else if (typeof value === "number") yield String(value);
  else if (value !== null) yield NOT_A_LIST;
}

/** The trimmed, non-empty items of comma-separated text (SEMANTICS.md section 11). */
function* commaItems(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    // Runs of commas and spaces are passed over a character at a time: 1 MiB of ",,,"
    // would otherwise cost a search and a slice per empty item.
    if (isSeparator(text.charCodeAt(start))) {
      start++;
      continue;
    }
    const comma = text.indexOf(",", start);
    const end = comma < 0 ? text.length : comma;
    const item = text.slice(start, end).trim();
    if (item !== "") yield item;
    start = end + 1;
  }
}

/** A comma, or a space that trim() removes too (ASCII: tab to carriage return, and space). */
function isSeparator(c: number): boolean {
  return c === 0x2c || c === 0x20 || (c >= 0x09 && c <= 0x0d);
}
