import type { JsonValue } from "../transcoding/json-value.js";

/**
 * A JSON object: what every part of the OpenAPI document is built from, so the
 * document is plain data that `JSON.stringify` writes as it is.
 */
export type JsonObject = { [key: string]: JsonValue };
