import { create, isFieldSet, isMessage, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { alwaysSent } from "./always-sent.js";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { renderedJsonOf } from "../rpc/rendered-lists.js";
import { CHUNK, JsonBytes } from "./json-bytes.js";
import type { JsonValue } from "./json-value.js";

/**
 * Writes a response message as the spec's REST face shows it, which is not
 * protobuf's canonical JSON: every field is present under its JSON name (zero
 * values and empty lists included), an unset optional or message field is an
 * explicit `null`, and 64-bit integers are JSON numbers, not strings (the values
 * here are ids and counts below 2^53). This API has no enum, bytes or map fields,
 * so they are refused rather than guessed at.
 */
export function messageJson(schema: DescMessage, message: Message): JsonBytes {
  const out = new JsonBytes();
  writeMessage(out, planOf(schema), message);
  return out;
}

/** A small message (no list long enough to be written later) as a parsed JSON value in the REST face's shape: a problem document's part. */
export function restJson(schema: DescMessage, message: Message): JsonValue {
  return JSON.parse(Buffer.concat(messageJson(schema, message).chunks()).toString("utf8")) as JsonValue;
}

/** One field's JSON value, for `response_body` answers. */
export function fieldJson(field: DescField, message: Message): JsonBytes {
  const out = new JsonBytes();
  writeField(out, field, message, (message as unknown as Record<string, unknown>)[field.localName]);
  return out;
}

/**
 * How many list items are written at once; the rest are left for later (JsonBytes),
 * a slice per turn. 10^5 loss cases took 20-60 ms in one piece; a slice takes 2-6.
 */
const ITEMS_AT_ONCE = 10_000;

type ListField = DescField & { fieldKind: "list" };

/** A message's fields with their keys already encoded, `,"jsonName":` after the first. */
interface MessagePlan {
  fields: { field: DescField; key: Uint8Array }[];
}

const plans = new WeakMap<DescMessage, MessagePlan>();
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

function planOf(schema: DescMessage): MessagePlan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = {
      fields: schema.fields.map((field, i) => ({
        field,
        key: Buffer.from(`${i === 0 ? "" : ","}${JSON.stringify(field.jsonName)}:`),
      })),
    };
    plans.set(schema, plan);
  }
  return plan;
}

function writeMessage(out: JsonBytes, plan: MessagePlan, message: Message): void {
  const record = message as unknown as Record<string, unknown>;
  out.byte(OPEN_BRACE);
  const { fields } = plan;
  for (let i = 0; i < fields.length; i++) {
    const { field, key } = fields[i]!;
    out.raw(key);
    writeField(out, field, message, record[field.localName]);
  }
  out.byte(CLOSE_BRACE);
}

function writeField(out: JsonBytes, field: DescField, message: Message, value: unknown): void {
  switch (field.fieldKind) {
    case "scalar":
      if (field.presence === FeatureSet_FieldPresence.EXPLICIT && !isFieldSet(message, field)) return out.null();
      return writeScalar(out, value);
    case "message":
      if (isMessage(value)) return writeMessage(out, planOf(field.message), value);
      // A field the contract says is always sent is an object even when the service left it unset.
      return alwaysSent(field) ? writeMessage(out, planOf(field.message), create(field.message)) : out.null();
    case "list": {
      const rendered = renderedJsonOf(message, field);
      return rendered ? out.bracketed(rendered) : writeList(out, field, value as unknown[]);
    }
    default:
      throw new Error(`${field.fieldKind} field ${field.name} is not supported in REST answers`);
  }
}

function writeList(out: JsonBytes, field: ListField, items: unknown[]): void {
  out.byte(OPEN_BRACKET);
  writeItems(out, field, items, 0);
  out.byte(CLOSE_BRACKET);
}

/** The items from `from` on: ITEMS_AT_ONCE of them now, the rest later. */
function writeItems(out: JsonBytes, field: ListField, items: unknown[], from: number): void {
  const writeItem = itemWriter(out, field);
  const to = Math.min(items.length, from + ITEMS_AT_ONCE);
  for (let i = from; i < to; i++) {
    if (i > 0) out.byte(COMMA);
    writeItem(items[i]);
  }
  if (to < items.length) {
    out.later(() => {
      const rest = new JsonBytes(CHUNK);
      writeItems(rest, field, items, to);
      return rest;
    });
  }
}

function itemWriter(out: JsonBytes, field: ListField): (item: unknown) => void {
  switch (field.listKind) {
    case "message": {
      const plan = planOf(field.message);
      return (item) => writeMessage(out, plan, item as Message);
    }
    case "scalar":
      return (item) => writeScalar(out, item);
    default:
      throw new Error(`${field.listKind} list ${field.name} is not supported in REST answers`);
  }
}

function writeScalar(out: JsonBytes, value: unknown): void {
  switch (typeof value) {
    case "number":
      return out.number(value);
    case "bigint":
      // Its own digits: Number() would round past 2^53 ($skip=9007199254740993 came back ...992).
      return out.integer(value);
    case "boolean":
      return out.boolean(value);
    case "string":
      return out.string(value);
    default:
      throw new Error(`a ${typeof value} is not supported in REST answers`);
  }
}
