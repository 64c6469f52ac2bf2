import { getOption, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { alias } from "../../gen/commercialpolicybenchmark/v2/options_pb.js";
import { maxItemsOf } from "../rpc/list-limits.js";
import type { JsonObject } from "./json-object.js";
import { scalarSchema } from "./scalar-schemas.js";

/**
 * The inputs of a request message as the REST binder reads them (field-binding.ts):
 * scalar fields and lists of scalars, under their JSON names and their `alias`
 * options (options.proto). Other fields "cannot be given over REST", so they are
 * not documented as inputs.
 */

/** The fields a REST caller can give, in declaration order, less those bound by the path. */
export function inputFields(message: DescMessage, pathFields: ReadonlySet<string> = new Set()): DescField[] {
  return message.fields.filter((field) => !pathFields.has(field.name) && isRestInput(field));
}

function isRestInput(field: DescField): boolean {
  if (field.fieldKind === "scalar") return field.scalar !== ScalarType.BYTES;
  return field.fieldKind === "list" && field.listKind === "scalar" && field.scalar !== ScalarType.BYTES;
}

/** The other names the binder accepts for a field (spec 2.1, SEMANTICS.md section 11). */
export function aliasesOf(field: DescField): string[] {
  return getOption(field, alias);
}

/**
 * The schema of an input: the scalar, or an array of it bounded by its `max_items`
 * option (beyond it the call is refused, list-limits.ts). No `null`: a null input
 * means "not given", which leaving it out says better.
 */
export function inputSchema(field: DescField): JsonObject {
  if (field.fieldKind === "list" && field.listKind === "scalar") {
    const maxItems = maxItemsOf(field);
    return { type: "array", items: scalarSchema(field.scalar), ...(maxItems === undefined ? {} : { maxItems }) };
  }
  if (field.fieldKind === "scalar") return scalarSchema(field.scalar);
  throw new Error(`${field.parent.typeName}.${field.name}: not a REST input`);
}

/**
 * What a reader must know about an input's name beyond the name itself: its aliases,
 * both in words (what Scalar and other renderers show) and as `x-aliases` (for tools).
 * The aliases are not separate parameters: a generated client would then offer two
 * arguments for one field, and a scalar given under both names is a 400.
 */
export function aliasAnnotations(field: DescField): JsonObject {
  const aliases = aliasesOf(field);
  if (aliases.length === 0) return {};
  return {
    description: `Also accepted as ${aliases.map((name) => `\`${name}\``).join(", ")}.`,
    "x-aliases": aliases,
  };
}
