import { DATASET_VERSION_HEADER } from "../rpc/dataset-version.js";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";

/**
 * Cross-origin calls from browsers (the Fetch standard's CORS protocol), for the
 * origins the operator names in CORS_ORIGINS; off when it is empty, the default:
 * a confidential API is called from another origin only where someone chose that.
 * Tokens travel in the Authorization header, never in cookies, so credentials mode is
 * never allowed and "*" is safe to offer (every other origin still needs a token).
 */
export interface Cors {
  /** Answers a preflight (true), or marks an actual request's response (false). */
  handle(req: NodeRequest, res: NodeResponse): boolean;
}

/** The headers a caller may send: REST, Connect, gRPC-Web, caching and tracing. */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "if-none-match",
  "x-request-id",
  "traceparent",
  "tracestate",
  "connect-protocol-version",
  "connect-timeout-ms",
  "connect-accept-encoding",
  "connect-content-encoding",
  "grpc-timeout",
  "grpc-accept-encoding",
  "grpc-encoding",
  "x-grpc-web",
  "x-user-agent",
].join(", ");

/** What a page may read of an answer: its id, its cache tag, its data's version, when to retry, and gRPC-Web's status. */
const EXPOSED_HEADERS = [
  "x-request-id",
  "etag",
  DATASET_VERSION_HEADER,
  "retry-after",
  "grpc-status",
  "grpc-message",
  "grpc-status-details-bin",
].join(", ");

const ALLOWED_METHODS = "GET, HEAD, POST";
/** Browsers cap it (Chromium at 2 h); a preflight per page load and method would double the calls. */
const MAX_AGE_SECONDS = 7200;

export function createCors(origins: readonly string[]): Cors | undefined {
  if (origins.length === 0) return undefined;
  const any = origins.includes("*");
  const allowed = new Set(origins);
  const allows = (origin: string) => any || allowed.has(origin);
  return {
    handle(req, res) {
      const origin = req.headers.origin;
      // The answer depends on Origin whenever CORS is on: no cache may hand one origin's to another.
      res.setHeader("vary", "Origin");
      const preflight = req.method === "OPTIONS" && typeof req.headers["access-control-request-method"] === "string";
      if (typeof origin !== "string" || !allows(origin)) {
        if (!preflight) return false;
        // Without the allow headers the browser refuses the call; the status says why to a person.
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
        res.end(`origin ${origin ?? "(none)"} is not allowed (CORS_ORIGINS)`);
        return true;
      }
      res.setHeader("access-control-allow-origin", any ? "*" : origin);
      if (!preflight) {
        res.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
        return false;
      }
      res.writeHead(204, {
        "access-control-allow-methods": ALLOWED_METHODS,
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": String(MAX_AGE_SECONDS),
      });
      res.end();
      return true;
    },
  };
}
