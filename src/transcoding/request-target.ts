import type { NodeRequest } from "./node-types.js";

/**
 * The path and query of a request target. The target is a path, never a URL:
 * `new URL("//a/b", base)` would make `a` a host.
 */
export function splitRequestTarget(req: NodeRequest): { path: string; query: URLSearchParams } {
  const target = req.url ?? "/";
  const queryStart = target.indexOf("?");
  return queryStart < 0
    ? { path: target, query: new URLSearchParams() }
    : { path: target.slice(0, queryStart), query: new URLSearchParams(target.slice(queryStart + 1)) };
}

/** The path of a request target alone, without parsing its query. */
export function requestPath(req: NodeRequest): string {
  const target = req.url ?? "/";
  const queryStart = target.indexOf("?");
  return queryStart < 0 ? target : target.slice(0, queryStart);
}
