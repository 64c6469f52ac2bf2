import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import type { JsonObject } from "./json-object.js";
import { scalarSchema } from "./scalar-schemas.js";
import { alwaysSent } from "../transcoding/always-sent.js";
import type { SchemaComponents } from "./schema-components.js";

/**
 * Answer schemas, shaped exactly as json-writer.ts writes answers: every field is
 * present under its JSON name (so every property is required), an unset optional
 * scalar or an unset message field is `null` (OpenAPI 3.1: `type: [X, "null"]`, or
 * `anyOf` with `null` beside a `$ref`), lists are never null, and 64-bit integers are
 * numbers. Enum, map and bytes fields are refused, as the writer refuses them.
 */

/** A `$ref` to the answer schema of a message. */
export function answerMessageRef(components: SchemaComponents, message: DescMessage): JsonObject {
  return components.ref(message.name, message, "response", () => ({
    type: "object",
    properties: Object.fromEntries(
      message.fields.map((field) => [field.jsonName, answerFieldSchema(components, field)]),
    ),
    required: message.fields.map((field) => field.jsonName),
    ...(message.deprecated ? { deprecated: true } : {}),
  }));
}

/** The schema of one field's JSON value, as `writeField` writes it (also a `response_body` answer). */
export function answerFieldSchema(components: SchemaComponents, field: DescField): JsonObject {
  const deprecated: JsonObject = field.deprecated ? { deprecated: true } : {};
  switch (field.fieldKind) {
    case "scalar": {
      const schema = scalarSchema(field.scalar);
      if (field.presence !== FeatureSet_FieldPresence.EXPLICIT) return { ...schema, ...deprecated };
      return { ...schema, type: [schema.type as string, "null"], ...deprecated };
    }
    case "message":
      // isMessage(value) ? the message : null, whatever the field's presence; never null
      // when the contract says it is always sent (always-sent.ts).
      if (alwaysSent(field)) return { ...answerMessageRef(components, field.message), ...deprecated };
      return { anyOf: [answerMessageRef(components, field.message), { type: "null" }], ...deprecated };
    case "list":
      if (field.listKind === "enum") break;
      return {
        type: "array",
        items: field.listKind === "message" ? answerMessageRef(components, field.message) : scalarSchema(field.scalar),
        ...deprecated,
      };
    default:
      break;
  }
  throw new Error(
    `${field.parent.typeName}.${field.name}: ${field.fieldKind} fields are not supported in REST answers`,
  );
}
