import { getOption, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { alias, closed_set, query_name } from "../../gen/commercialpolicybenchmark/v2/options_pb.js";
import { FieldBehavior, field_behavior } from "../../gen/google/api/field_behavior_pb.js";
import { maxItemsOf } from "../rpc/list-limits.js";
import type { JsonObject } from "./json-object.js";
import { descriptionOf } from "./proto-descriptions.js";
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

/**
 * Whether the services refuse a call without this input (400 naming it): the contract
 * says so with the standard `google.api.field_behavior = REQUIRED`, on any field of any
 * request message, so a new operation's required inputs are documented with no change here.
 */
export function isRequired(field: DescField): boolean {
  return getOption(field, field_behavior).includes(FieldBehavior.REQUIRED);
}

/** The name an input is documented under: in a query, the spec's spelling where it has its own (`query_name`), else the JSON name. */
export function inputName(field: DescField, place: "query" | "body"): string {
  const spelled = place === "query" ? getOption(field, query_name) : "";
  return spelled === "" ? field.jsonName : spelled;
}

/** How the binder compares names (SEMANTICS.md section 11): case-insensitively, ignoring spaces. */
function nameKey(name: string): string {
  return name.replace(/\s+/g, "").toLowerCase();
}

/** The other names the binder accepts for a field, beyond `documented` and its case variants (spec 2.1, SEMANTICS.md section 11). */
export function aliasesOf(field: DescField, documented: string = field.jsonName): string[] {
  const seen = new Set([nameKey(documented)]);
  const names: string[] = [];
  for (const name of [field.jsonName, ...getOption(field, alias), getOption(field, query_name)]) {
    if (name === "" || seen.has(nameKey(name))) continue;
    seen.add(nameKey(name));
    names.push(name);
  }
  return names;
}

/**
 * The schema of an input: the scalar, or an array of it bounded by its `max_items`
 * option (beyond it the call is refused, list-limits.ts), with its `closed_set` as an
 * `enum`. No `null`: a null input means "not given", which leaving it out says better.
 */
export function inputSchema(field: DescField): JsonObject {
  if (field.fieldKind === "list" && field.listKind === "scalar") {
    const maxItems = maxItemsOf(field);
    return { type: "array", items: scalarSchema(field.scalar), ...(maxItems === undefined ? {} : { maxItems }) };
  }
  if (field.fieldKind === "scalar") {
    const values = getOption(field, closed_set);
    return { ...scalarSchema(field.scalar), ...(values.length > 0 ? { enum: values } : {}) };
  }
  throw new Error(`${field.parent.typeName}.${field.name}: not a REST input`);
}

/**
 * What a reader must know about an input beyond its schema: the contract's comment on
 * it, then how its name is matched, with its aliases both in words (what Scalar and
 * other renderers show) and as `x-aliases` (for tools). A gateway validating against
 * the document must compare names as the service does. The aliases are not separate
 * parameters: a generated client would then offer two arguments for one field, and a
 * scalar given under both names is a 400.
 */
export function inputAnnotations(field: DescField, documented: string, extra?: string): JsonObject {
  const aliases = aliasesOf(field, documented);
  const names = aliases.length === 0 ? "" : `; also accepted as ${aliases.map((name) => `\`${name}\``).join(", ")}`;
  const matching = `The name matches case-insensitively, ignoring spaces${names}.`;
  const closed =
    getOption(field, closed_set).length > 0
      ? " Values match case-insensitively, ignoring spaces, `_` and `-`; empty means the first."
      : "";
  const description = [descriptionOf(field), extra, matching + closed]
    .filter((text) => text !== undefined)
    .join("\n\n");
  return {
    description,
    ...(aliases.length > 0 ? { "x-aliases": aliases } : {}),
    ...(field.deprecated ? { deprecated: true } : {}),
  };
}
