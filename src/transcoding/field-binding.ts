import { create, getOption, ScalarType, type DescField, type DescMessage, type Message, type MessageShape } from "@bufbuild/protobuf";
import { alias } from "../../gen/commercialpolicybenchmark/v2/options_pb.js";
import type { InputProblem } from "../rpc/input-problems.js";
import { NumberText } from "./json-body.js";
import { describe, readScalar, type ScalarValue } from "./scalar-values.js";

/**
 * Binds REST inputs (path variables, query parameters, a JSON body) to a request
 * message by reflection over its descriptor, as google/api/http.proto prescribes:
 * path variables bind to their fields; with `body: "*"` every other field comes from
 * the body, otherwise from the query string.
 *
 * Names are found as SEMANTICS.md section 11 reads them: the JSON name or an
 * `alias` option, case-insensitively and ignoring spaces; unknown names are ignored. Problems are collected, not thrown, so one answer lists them all.
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
  /** A parsed JSON object body. */
  body?: Record<string, unknown>;
}

export function createBinder<Desc extends DescMessage>(schema: Desc): Binder<MessageShape<Desc>> {
  const fieldsByName = indexFields(schema);
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
        values.set(field, [...(values.get(field) ?? []), value]);
      };
      for (const [name, value] of parameters ?? []) collect(name, value);
      for (const [name, value] of Object.entries(body ?? {})) collect(name, value);
      for (const [name, value] of pathVariables) {
        const field = schema.fields.find((f) => f.name === name)!;
        values.set(field, [value]);
      }
      for (const [field, inputs] of values) {
        const problem = assign(fields, field, inputs);
        if (problem) problems.push({ field: field.jsonName, ...problem });
        const text = decimalText(field, inputs);
        if (!problem && text !== undefined) decimalTexts.set(field.jsonName, text);
      }
      return { message, problems, decimalTexts };
    },
  };
}

/** Lower-cased, without spaces: `lineOf Business` and `lineofbusiness` are one name. */
function normalizeName(name: string): string {
  return name.replace(/\s+/g, "").toLowerCase();
}

function indexFields(schema: DescMessage): Map<string, DescField> {
  const index = new Map<string, DescField>();
  for (const field of schema.fields) {
    // SEMANTICS.md 11: the spec's names and its aliases; any other name is ignored.
    for (const name of [field.jsonName, ...getOption(field, alias)]) {
      index.set(normalizeName(name), field);
    }
  }
  return index;
}

type Problem = Omit<InputProblem, "field">;

function assign(message: Record<string, unknown>, field: DescField, inputs: unknown[]): Problem | undefined {
  if (field.fieldKind === "list" && field.listKind === "scalar") {
    const items: ScalarValue[] = [];
    for (const item of inputs.flatMap(listItems)) {
      if (item === undefined) return { message: `${describe(inputs.length === 1 ? inputs[0] : inputs)} is not a list`, kind: "type" };
      const read = readScalar(field.scalar, item);
      if ("problem" in read) return { message: read.problem, kind: read.kind };
      items.push(read.value);
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
  if (field.fieldKind !== "scalar" || (field.scalar !== ScalarType.DOUBLE && field.scalar !== ScalarType.FLOAT)) return undefined;
  const input = inputs[0];
  return input instanceof NumberText ? input.text : typeof input === "string" ? input.trim() : undefined;
}

/**
 * The items of a list input: text is split on commas (inside an array too), a number
 * is one item written as its digits, null is skipped; anything else is `undefined`,
 * which the caller reports as not a list.
 */
function listItems(input: unknown): unknown[] {
  if (Array.isArray(input)) return input.flatMap((item) => (Array.isArray(item) ? [undefined] : listItems(item)));
  if (typeof input === "string") return input.split(",").map((item) => item.trim()).filter((item) => item !== "");
  if (input instanceof NumberText) return [input.text];
  if (typeof input === "number") return [String(input)];
  if (input === null) return [];
  return [undefined];
}
