import type { DescField } from "@bufbuild/protobuf";
import type { HttpRoute } from "../transcoding/http-routes.js";
import { aliasAnnotations, inputFields, inputSchema } from "./input-fields.js";
import type { JsonObject } from "./json-object.js";
import type { OpenApiPath } from "./openapi-path.js";

/**
 * The Parameter Objects of a route: its path variables, then, when the route has no
 * body, every other input field as a query parameter (google/api/http.proto: "any
 * fields in the request message which are not bound by the path template
 * automatically become HTTP query parameters if there is no HTTP request body").
 */
export function routeParameters(route: HttpRoute, path: OpenApiPath): JsonObject[] {
  const pathParameters = path.variables.map(
    (field): JsonObject => ({ name: field.jsonName, in: "path", required: true, schema: inputSchema(field), ...deprecation(field) }),
  );
  if (route.body !== "") return pathParameters;
  const bound = new Set(path.variables.map((field) => field.name));
  return [...pathParameters, ...inputFields(route.method.input, bound).map(queryParameter)];
}

function queryParameter(field: DescField): JsonObject {
  const aliases = aliasAnnotations(field);
  if (field.fieldKind !== "list") return { name: field.jsonName, in: "query", schema: inputSchema(field), ...aliases, ...deprecation(field) };
  // The spec's form is comma-separated (2.1); the binder also collects repeated
  // parameters (field-binding.ts), which `explode: true` clients would send.
  const description = [aliases.description, "Comma-separated; the parameter may also be repeated."].filter((text) => text !== undefined).join(" ");
  return { name: field.jsonName, in: "query", schema: inputSchema(field), style: "form", explode: false, ...aliases, description, ...deprecation(field) };
}

function deprecation(field: DescField): JsonObject {
  return field.deprecated ? { deprecated: true } : {};
}
