import { LRUCache } from "lru-cache";
import { compareSpecificity, matchSegments, pathSegments } from "./path-template.js";
import type { HttpRoute } from "./http-routes.js";

const REMEMBERED_PATHS = 1000;

export type RouteMatch =
  | { outcome: "found"; route: HttpRoute; pathVariables: ReadonlyMap<string, string> }
  | { outcome: "method-not-allowed"; allow: string[] }
  | { outcome: "not-found" };

export interface RouteTable {
  match(httpMethod: string, path: string): RouteMatch;
}

/**
 * Finds the route of a request. The most specific template wins, whatever the order
 * of the rules; a path that matches only under other methods is a 405 with the
 * methods it allows, and a path that matches nothing is a 404.
 */
export function createRouteTable(routes: readonly HttpRoute[]): RouteTable {
  // Requests repeat their paths: a path's match is found once (the answer is a pure
  // function of method and path; callers only read it). Bounded, as paths with a
  // variable (company/{id}) are many.
  const recent = new LRUCache<string, RouteMatch>({ max: REMEMBERED_PATHS });
  return {
    match(httpMethod, path) {
      const key = `${httpMethod} ${path}`;
      let found = recent.get(key);
      if (!found) recent.set(key, (found = matchRoute(httpMethod, path)));
      return found;
    },
  };

  function matchRoute(httpMethod: string, path: string): RouteMatch {
    const segments = pathSegments(path);
    if (!segments) return { outcome: "not-found" };
    const candidates = routes
      .map((route) => ({ route, pathVariables: matchSegments(route.template, segments) }))
      .filter((c): c is { route: HttpRoute; pathVariables: Map<string, string> } => c.pathVariables !== undefined);
    if (candidates.length === 0) return { outcome: "not-found" };
    // HEAD is GET without the body (RFC 9110, 9.3.2); Node leaves the body out.
    const method = httpMethod.toUpperCase() === "HEAD" ? "GET" : httpMethod.toUpperCase();
    const sameMethod = candidates
      .filter((c) => c.route.httpMethod === method)
      .sort((a, b) => compareSpecificity(a.route.template, b.route.template));
    const best = sameMethod[0];
    if (best) return { outcome: "found", ...best };
    const allow = [...new Set(candidates.map((c) => c.route.httpMethod))].sort();
    return { outcome: "method-not-allowed", allow };
  }
}
