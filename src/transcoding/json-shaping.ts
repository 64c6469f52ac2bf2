import { isMessage, ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { isFieldSet } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Writes a response message as the spec's REST face shows it, which is not
 * protobuf's canonical JSON: every field is present under its JSON name (zero
 * values and empty lists included), an unset optional or message field is an
 * explicit `null`, and 64-bit integers are JSON numbers, not strings (the values
 * here are ids and counts below 2^53).
 */
export function shapeMessage(schema: DescMessage, message: Message): { [key: string]: JsonValue } {
  const record = message as unknown as Record<string, unknown>;
  const json: { [key: string]: JsonValue } = {};
  for (const field of schema.fields) {
    json[field.jsonName] = shapeField(field, message, record[field.localName]);
  }
  return json;
}

/** One field's JSON value, for `response_body` answers as well. */
export function shapeField(field: DescField, message: Message, value: unknown): JsonValue {
  switch (field.fieldKind) {
    case "scalar":
      return field.presence === FeatureSet_FieldPresence.EXPLICIT && !isFieldSet(message, field)
        ? null
        : shapeScalar(field.scalar, value);
    case "enum":
      return field.enum.values.find((v) => v.number === value)?.name ?? null;
    case "message":
      return isMessage(value) ? shapeMessage(field.message, value) : null;
    case "list":
      return (value as unknown[]).map((item) =>
        field.listKind === "message"
          ? shapeMessage(field.message, item as Message)
          : field.listKind === "scalar"
            ? shapeScalar(field.scalar, item)
            : (field.enum.values.find((v) => v.number === item)?.name ?? null),
      );
    case "map":
      throw new Error(`map field ${field.name} is not supported in REST answers`);
  }
}

function shapeScalar(type: ScalarType, value: unknown): JsonValue {
  if (typeof value === "bigint") return Number(value);
  if (type === ScalarType.BYTES) return Buffer.from(value as Uint8Array).toString("base64");
  return value as JsonValue;
}
