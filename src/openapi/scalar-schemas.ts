import { ScalarType } from "@bufbuild/protobuf";
import type { JsonObject } from "./json-object.js";

/**
 * The JSON Schema of a protobuf scalar as the REST face reads and writes it
 * (scalar-values.ts, json-writer.ts), which is not protobuf's canonical JSON:
 * 64-bit integers are JSON numbers, never strings. `format` uses the OpenAPI
 * format registry's names (int32, int64, float, double).
 *
 * A non-finite double would be written as `null` (json-bytes.ts), but the
 * services answer amounts computed as decimals, which are always finite: making
 * every number nullable for that would mislead every generated client.
 */
export function scalarSchema(type: ScalarType): JsonObject {
  switch (type) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      // Every uint32 fits in an int64; OpenAPI has no unsigned format.
      return { type: "integer", format: "int64", minimum: 0 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      // Written with Number(): exact below 2^53, which ids and counts are (json-writer.ts).
      return { type: "integer", format: "int64" };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "integer", minimum: 0 };
    case ScalarType.BYTES:
      // Neither read (scalar-values.ts) nor written (json-writer.ts) over REST.
      throw new Error("bytes fields are not supported over REST");
  }
}
