import { getOption, hasOption, type DescMethod } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../gen/google/api/http_pb.js";
import { parsePathTemplate, templateShape, type PathTemplate } from "./path-template.js";

/** One REST binding of an RPC, read from its google.api.http option. */
export interface HttpRoute {
  readonly httpMethod: string;
  readonly template: PathTemplate;
  readonly method: DescMethod;
  /** "" (no body: fields come from the query), or "*" (the whole message is the body). */
  readonly body: string;
  /** "" (the whole response), or the name of the response field to answer with. */
  readonly responseBody: string;
}

/**
 * Reads the google.api.http rules (with their additional_bindings) of the given
 * methods from the generated descriptors. Fails fast on a rule this transcoder
 * cannot serve faithfully, or on two rules that would match the same requests.
 */
export function readHttpRoutes(methods: Iterable<DescMethod>): HttpRoute[] {
  const routes: HttpRoute[] = [];
  const seen = new Map<string, string>();
  for (const method of methods) {
    if (!hasOption(method, http)) continue;
    const rule = getOption(method, http);
    for (const binding of [rule, ...rule.additionalBindings]) {
      const route = toRoute(method, binding);
      const key = `${route.httpMethod} ${templateShape(route.template)}`;
      const other = seen.get(key);
      if (other) throw new Error(`${method.parent.typeName}.${method.name}: "${key}" collides with ${other}`);
      seen.set(key, `${method.parent.typeName}.${method.name}`);
      routes.push(route);
    }
  }
  return routes;
}

function toRoute(method: DescMethod, rule: HttpRule): HttpRoute {
  const where = `${method.parent.typeName}.${method.name}`;
  if (rule.pattern.case === undefined || rule.pattern.case === "custom") {
    throw new Error(`${where}: an http rule needs get, post, put, patch or delete`);
  }
  if (method.methodKind !== "unary") throw new Error(`${where}: only unary methods can have http rules`);
  if (rule.body !== "" && rule.body !== "*") throw new Error(`${where}: body must be "" or "*"`);
  if (rule.responseBody !== "" && !method.output.fields.some((f) => f.name === rule.responseBody)) {
    throw new Error(`${where}: response_body "${rule.responseBody}" is not a field of ${method.output.typeName}`);
  }
  const template = parsePathTemplate(rule.pattern.value);
  for (const segment of template.segments) {
    if (segment.kind === "variable" && !method.input.fields.some((f) => f.name === segment.fieldPath)) {
      throw new Error(`${where}: path variable {${segment.fieldPath}} is not a field of ${method.input.typeName}`);
    }
  }
  return {
    httpMethod: rule.pattern.case.toUpperCase(),
    template,
    method,
    body: rule.body,
    responseBody: rule.responseBody,
  };
}
