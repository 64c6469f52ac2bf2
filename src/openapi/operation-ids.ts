import type { DescMethod } from "@bufbuild/protobuf";
import type { HttpRoute } from "../transcoding/http-routes.js";

/**
 * A stable, unique operationId for every route, from the contract alone: the RPC's
 * name (`GetCompany`); with its HTTP method when the RPC has several bindings
 * (`GetRpmDistributionData_get`, `_post`); and with the path's last literal when two
 * bindings share the method (`GetLimitAdequacy_get_limitadequacy`,
 * `GetLimitAdequacy_get_getlimitadequacydata`). Generated clients name their methods
 * after these, so they change only when the contract does. Two routes left with one
 * id are refused, as readHttpRoutes refuses colliding rules.
 */
export function operationIds(routes: readonly HttpRoute[]): Map<HttpRoute, string> {
  const byMethod = new Map<DescMethod, HttpRoute[]>();
  for (const route of routes) byMethod.set(route.method, [...(byMethod.get(route.method) ?? []), route]);
  const ids = new Map<HttpRoute, string>();
  const owners = new Map<string, HttpRoute>();
  for (const route of routes) {
    const siblings = byMethod.get(route.method)!;
    const verb = route.httpMethod.toLowerCase();
    let id = route.method.name;
    if (siblings.length > 1) id += `_${verb}`;
    if (siblings.filter((r) => r.httpMethod === route.httpMethod).length > 1) id += `_${lastLiteral(route)}`;
    const other = owners.get(id);
    if (other) throw new Error(`operationId ${id}: both ${describe(other)} and ${describe(route)}`);
    owners.set(id, route);
    ids.set(route, id);
  }
  return ids;
}

function lastLiteral(route: HttpRoute): string {
  const literals = route.template.segments.flatMap((segment) => (segment.kind === "literal" ? [segment.text] : []));
  return literals[literals.length - 1] ?? "root";
}

function describe(route: HttpRoute): string {
  return `${route.httpMethod} ${route.template.source}`;
}
