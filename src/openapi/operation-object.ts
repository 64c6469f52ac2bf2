import type { HttpRoute } from "../transcoding/http-routes.js";
import type { JsonObject } from "./json-object.js";
import type { OpenApiPath } from "./openapi-path.js";
import { errorResponses } from "./problem-responses.js";
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
 * The Operation Object of one route. No summary or description: the contract's
 * comments would be the only honest source, and the generated descriptors carry no
 * source info (protoc-gen-es embeds them without it).
 */
export function operationObject(route: HttpRoute, path: OpenApiPath, { components, operationId, security }: OperationContext): JsonObject {
  const parameters = routeParameters(route, path);
  const body = requestBody(components, route, path);
  return {
    operationId,
    tags: [route.method.parent.name],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      "200": { description: answerDescription(route), content: { "application/json": { schema: answerSchema(components, route) } } },
      ...errorResponses(route, path),
    },
    security,
    ...(route.method.deprecated ? { deprecated: true } : {}),
  };
}

/** What rest-handler.ts answers: the whole output message, or the field `response_body` names. */
function answerSchema(components: SchemaComponents, route: HttpRoute): JsonObject {
  if (route.responseBody === "") return answerMessageRef(components, route.method.output);
  // readHttpRoutes checked that response_body names a field of the output.
  return answerFieldSchema(components, route.method.output.fields.find((f) => f.name === route.responseBody)!);
}

function answerDescription(route: HttpRoute): string {
  const output = route.method.output;
  if (route.responseBody === "") return `${output.name}, every field present (unset optional fields are null).`;
  const field = output.fields.find((f) => f.name === route.responseBody)!;
  return `The \`${field.jsonName}\` field of ${output.name}, alone.`;
}
