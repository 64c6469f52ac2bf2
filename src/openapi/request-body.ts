import type { DescMessage } from "@bufbuild/protobuf";
import type { HttpRoute } from "../transcoding/http-routes.js";
import { inputAnnotations, inputFields, inputSchema, isRequired } from "./input-fields.js";
import type { JsonObject } from "./json-object.js";
import type { OpenApiPath } from "./openapi-path.js";
import type { SchemaComponents } from "./schema-components.js";

/**
 * The Request Body Object of a `body: "*"` route: a JSON object of the input fields
 * not bound by the path (google/api/http.proto), under their JSON names.
 *
 * Only `application/json` is listed, though the server reads the body as JSON whatever
 * its Content-Type (the spec's clients label JSON `application/x-www-form-urlencoded`,
 * SEMANTICS.md section 11): an OpenAPI form body means `key=value` pairs, and clients
 * should send the JSON they are documented to. The body itself is not `required`: an
 * empty body counts as `{}`, and is answered with a 400 that names each missing input.
 */
export function requestBody(components: SchemaComponents, route: HttpRoute, path: OpenApiPath): JsonObject | undefined {
  if (route.body === "") return undefined;
  const schema =
    path.variables.length === 0
      ? components.ref(route.method.input.name, route.method.input, "request", () =>
          bodySchema(route.method.input, new Set()),
        )
      : bodySchema(route.method.input, new Set(path.variables.map((field) => field.name)));
  return { content: { "application/json": { schema } } };
}

/**
 * The properties the contract marks `google.api.field_behavior = REQUIRED` are
 * `required`: the services answer 400 without them. Unknown keys are ignored rather
 * than refused, so no `additionalProperties: false`.
 */
function bodySchema(message: DescMessage, pathFields: ReadonlySet<string>): JsonObject {
  const fields = inputFields(message, pathFields);
  const properties = fields.map((field) => [
    field.jsonName,
    { ...inputSchema(field), ...inputAnnotations(field, field.jsonName) },
  ]);
  const required = fields.filter(isRequired).map((field) => field.jsonName);
  return { type: "object", properties: Object.fromEntries(properties), ...(required.length > 0 ? { required } : {}) };
}
