import { ScalarType } from "@bufbuild/protobuf";
import { NumberText } from "./json-body.js";

/**
 * Reading one REST input value as a protobuf scalar, leniently as SEMANTICS.md
 * section 11 asks: numbers may come as numeric strings, list items as
 * comma-separated text. Every function answers the value, or a problem text.
 */

export type ScalarValue = string | number | bigint | boolean;
export type Read = { value: ScalarValue } | { problem: string; kind: "type" | "range" };

const INT_RANGES: Partial<Record<ScalarType, [bigint, bigint]>> = {
  [ScalarType.INT32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.SINT32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.SFIXED32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.UINT32]: [0n, 2n ** 32n - 1n],
  [ScalarType.FIXED32]: [0n, 2n ** 32n - 1n],
  [ScalarType.INT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.SINT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.SFIXED64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.UINT64]: [0n, 2n ** 64n - 1n],
  [ScalarType.FIXED64]: [0n, 2n ** 64n - 1n],
};

const IS_64_BIT = new Set([
  ScalarType.INT64,
  ScalarType.SINT64,
  ScalarType.SFIXED64,
  ScalarType.UINT64,
  ScalarType.FIXED64,
]);

// JSON's number grammar, with an optional sign and fraction-only forms (".5") allowed.
const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Reads one JSON value (numbers as NumberText) or query-string text as a value of the scalar type. */
export function readScalar(type: ScalarType, given: unknown): Read {
  // A JSON number is read from its digits; it is no string, nor a boolean.
  const input =
    given instanceof NumberText && type !== ScalarType.STRING && type !== ScalarType.BOOL ? given.text : given;
  switch (type) {
    case ScalarType.STRING:
      if (typeof input !== "string") return typeProblem(input, "a string");
      // Protobuf strings may hold U+0000; no text column or parameter of PostgreSQL can.
      return input.includes("\u0000")
        ? { problem: "must not contain a NUL character", kind: "type" }
        : { value: input };
    case ScalarType.BOOL:
      return readBool(input);
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return readDouble(input);
    case ScalarType.BYTES:
      return typeProblem(input, "supported here");
    default:
      return readInteger(type, input);
  }
}

function readBool(input: unknown): Read {
  if (typeof input === "boolean") return { value: input };
  if (typeof input === "string" && /^(true|false)$/i.test(input.trim())) {
    return { value: input.trim().toLowerCase() === "true" };
  }
  return typeProblem(input, "true or false");
}

function readDouble(input: unknown): Read {
  if (typeof input === "number" && Number.isFinite(input)) return { value: input };
  if (typeof input === "string" && NUMBER_TEXT.test(input.trim())) {
    const value = Number(input.trim());
    if (Number.isFinite(value)) return { value };
  }
  return typeProblem(input, "a number");
}

function readInteger(type: ScalarType, input: unknown): Read {
  const integer =
    typeof input === "number"
      ? Number.isInteger(input)
        ? BigInt(input)
        : undefined
      : typeof input === "string"
        ? exactInteger(input.trim())
        : undefined;
  if (integer === undefined) return typeProblem(input, "an integer");
  const [min, max] = INT_RANGES[type] ?? [0n, 0n];
  if (integer < min || integer > max) {
    return {
      problem: `${typeof input === "string" ? input.trim() : String(input)} is out of range (${min} to ${max})`,
      kind: "range",
    };
  }
  return { value: IS_64_BIT.has(type) ? integer : Number(integer) };
}

/**
 * The integer a number text stands for exactly ("5", "5.0", "1e3"), or undefined when
 * it stands for none ("1.5", and "0.99999999999999999", which a double would round to 1).
 */
function exactInteger(text: string): bigint | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match || (match[2] === "" && !match[3])) return undefined;
  const [, sign, whole, fraction = "", exponentText = "0"] = match;
  const exponent = Number(exponentText) - fraction.length;
  let digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, "");
  if (exponent < 0) {
    const dropped = digits.slice(exponent);
    if (/[1-9]/.test(dropped)) return undefined;
    digits = digits.slice(0, exponent) || "0";
  } else if (exponent > 40) {
    return /^0*$/.test(digits) ? 0n : BigInt(sign === "-" ? -1 : 1) * 10n ** 40n; // beyond every range: reported as such
  } else {
    digits += "0".repeat(exponent);
  }
  return BigInt(sign === "-" ? `-${digits}` : digits);
}

function typeProblem(input: unknown, expected: string): Read {
  return { problem: `${describe(input)} is not ${expected}`, kind: "type" };
}

/** A short rendering of a rejected value for a problem message. */
export function describe(input: unknown): string {
  if (input instanceof NumberText) return input.text;
  if (typeof input === "string") return JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input);
  if (Array.isArray(input)) return "a list";
  if (input !== null && typeof input === "object") return "an object";
  return String(input);
}
