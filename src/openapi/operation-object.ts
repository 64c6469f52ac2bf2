import type { HttpRoute } from "../transcoding/http-routes.js";
import type { JsonObject } from "./json-object.js";
import type { OpenApiPath } from "./openapi-path.js";
import { errorResponses } from "./problem-responses.js";
import { operationText } from "./proto-descriptions.js";
import { requestBody } from "./request-body.js";
import { answerFieldSchema, answerMessageRef } from "./response-schemas.js";
import { routeParameters } from "./route-parameters.js";
import type { SchemaComponents } from "./schema-components.js";

export interface OperationContext {
  components: SchemaComponents;
  operationId: string;
  security: JsonObject[];
}

/**
 * The answer cache's validator (answer-cache.ts): every answer of a bound request
 * carries one while the service knows its dataset version, which `cpb serve` always
 * does, and an `If-None-Match` naming it is answered 304 while the data is unchanged.
 */
const ETAG: JsonObject = {
  ETag: {
    description:
      "A strong validator of this answer under the data answering now; send it back as `If-None-Match` to get a 304 while the data is unchanged.",
    schema: { type: "string" },
  },
};

/** rest-handler.ts: every answer says which dataset version its data came from (dataset-version.ts). */
const DATA_VERSION: JsonObject = {
  "Cpb-Dataset-Version": {
    description:
      "The dataset version this answer's data was read from (the same as `datasetVersion` of the reference data). During an import and the rebuild that follows it, replicas answer from different versions for a few seconds; this says which one answered.",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
};

/**
 * The Operation Object of one route: its summary and description from the rpc's
 * comment (proto-descriptions.ts), its inputs, and every answer it can give.
 */
export function operationObject(
  route: HttpRoute,
  path: OpenApiPath,
  { components, operationId, security }: OperationContext,
): JsonObject {
  const parameters = routeParameters(route, path);
  const body = requestBody(components, route, path);
  return {
    operationId,
    ...operationText(route.method),
    tags: [route.method.parent.name],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      "200": {
        description: answerDescription(route),
        headers: { ...ETAG, ...DATA_VERSION },
        content: { "application/json": { schema: answerSchema(components, route) } },
      },
      // rest-handler.ts answers it for any method (a POST's ETag works alike), before
      // the call is made: the caller already has the answer.
      "304": {
        description:
          "Not modified: `If-None-Match` named this answer's ETag and the data has not changed since. No body.",
        headers: ETAG,
      },
      ...errorResponses(route, path),
    },
    security,
    ...(route.method.deprecated ? { deprecated: true } : {}),
  };
}

/**
 * What rest-handler.ts answers: the whole output message, or the field `response_body`
 * names. Such a message field is the answer itself: the services always set it (no
 * record is a 404), so unlike a message field inside an answer it is never null.
 */
function answerSchema(components: SchemaComponents, route: HttpRoute): JsonObject {
  if (route.responseBody === "") return answerMessageRef(components, route.method.output);
  // readHttpRoutes checked that response_body names a field of the output.
  const field = route.method.output.fields.find((f) => f.name === route.responseBody)!;
  if (field.fieldKind === "message") return answerMessageRef(components, field.message);
  return answerFieldSchema(components, field);
}

function answerDescription(route: HttpRoute): string {
  const output = route.method.output;
  if (route.responseBody === "") return `${output.name}, every field present (unset optional fields are null).`;
  const field = output.fields.find((f) => f.name === route.responseBody)!;
  return `The \`${field.jsonName}\` field of ${output.name}, alone.`;
}
