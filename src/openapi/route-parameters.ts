import type { DescField } from "@bufbuild/protobuf";
import type { HttpRoute } from "../transcoding/http-routes.js";
import { inputAnnotations, inputFields, inputName, inputSchema, isRequired } from "./input-fields.js";
import type { JsonObject } from "./json-object.js";
import type { OpenApiPath } from "./openapi-path.js";
import { descriptionOf } from "./proto-descriptions.js";

/**
 * The Parameter Objects of a route: its path variables, then, when the route has no
 * body, every other input field as a query parameter (google/api/http.proto: "any
 * fields in the request message which are not bound by the path template
 * automatically become HTTP query parameters if there is no HTTP request body").
 * A query parameter is named as the route's own spelling has it (`query_name`, the
 * limit-adequacy GET's `Naics`), and `required` when the contract marks the field so.
 */
export function routeParameters(route: HttpRoute, path: OpenApiPath): JsonObject[] {
  const pathParameters = path.variables.map((field): JsonObject => {
    const description = descriptionOf(field);
    return {
      name: field.jsonName,
      in: "path",
      required: true,
      schema: inputSchema(field),
      ...(description ? { description } : {}),
      ...deprecation(field),
    };
  });
  if (route.body !== "") return pathParameters;
  const bound = new Set(path.variables.map((field) => field.name));
  return [...pathParameters, ...inputFields(route.method.input, bound).map(queryParameter)];
}

function queryParameter(field: DescField): JsonObject {
  const name = inputName(field, "query");
  const required: JsonObject = isRequired(field) ? { required: true } : {};
  if (field.fieldKind !== "list")
    return { name, in: "query", ...required, schema: inputSchema(field), ...inputAnnotations(field, name) };
  // The spec's form is comma-separated (2.1); the binder also collects repeated
  // parameters (field-binding.ts), which `explode: true` clients would send.
  const annotations = inputAnnotations(field, name, "Comma-separated; the parameter may also be repeated.");
  return { name, in: "query", ...required, schema: inputSchema(field), style: "form", explode: false, ...annotations };
}

function deprecation(field: DescField): JsonObject {
  return field.deprecated ? { deprecated: true } : {};
}
