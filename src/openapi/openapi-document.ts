import { PeerGroupSuggestionSchema } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { templateShape } from "../transcoding/path-template.js";
import type { HttpRoute } from "../transcoding/http-routes.js";
import type { JsonObject } from "./json-object.js";
import { operationIds } from "./operation-ids.js";
import { operationObject } from "./operation-object.js";
import { openApiPath } from "./openapi-path.js";
import { problemComponents } from "./problem-responses.js";
import { answerMessageRef } from "./response-schemas.js";
import { createSchemaComponents } from "./schema-components.js";
import { securityRequirement, securitySchemes } from "./security-scheme.js";

export interface OpenApiOptions {
  /** The OpenID Connect issuer (AUTH_ISSUER); undefined when none is configured (security-scheme.ts). */
  issuer: string | undefined;
  /** The document's version (`info.version`): the service's release, not the API's `v2.0`. */
  version: string;
  /**
   * Where the API is served. Without it the document names no server, which OpenAPI
   * reads as `/`, relative to where the document was fetched: right for a document
   * the service serves itself.
   */
  serverUrl?: string;
  /** Scopes every access token must carry (AUTH_REQUIRED_SCOPES). */
  scopes?: readonly string[];
}

/** How the REST face reads names and writes answers (SEMANTICS.md section 11, json-writer.ts), once for every operation. */
const DESCRIPTION = [
  "The REST face of the Commercial Policy Benchmark service, generated from the google.api.http rules it serves.",
  "",
  "- Paths match in any case, with or without a trailing slash.",
  "- Query parameter names and JSON keys match in any case, ignoring spaces; aliases are listed with each input (`x-aliases`). Unknown names are ignored.",
  "- List inputs take comma-separated values, repeated parameters or JSON arrays. Numbers may also come as numeric strings.",
  "- A POST body is read as JSON whatever its Content-Type; an empty body counts as `{}`.",
  "- Answers carry every field; unset optional and message fields are `null`; 64-bit integers are JSON numbers.",
  "- Errors are RFC 9457 problem documents (`application/problem+json`).",
].join("\n");

/**
 * The OpenAPI 3.1 document of the REST face, built from the same route table the
 * transcoder serves (readHttpRoutes), so it cannot describe a path, method, input
 * or answer the server does not have. Plain JSON data; deterministic for the same
 * routes and options.
 */
export function openApiDocument(routes: readonly HttpRoute[], options: OpenApiOptions): JsonObject {
  const components = createSchemaComponents();
  const ids = operationIds(routes);
  const paths = new Map<string, JsonObject>();
  const shapes = new Map<string, string>();
  const tags = new Set<string>();
  for (const route of routes) {
    const path = openApiPath(route);
    // Two spellings of one shape would be two path items for the same requests.
    const shape = templateShape(route.template);
    const spelled = shapes.get(shape);
    if (spelled !== undefined && spelled !== path.path) throw new Error(`${path.path} and ${spelled} are one path spelled twice`);
    shapes.set(shape, path.path);
    const item = paths.get(path.path) ?? {};
    item[route.httpMethod.toLowerCase()] = operationObject(route, path, {
      components,
      operationId: ids.get(route)!,
      security: securityRequirement(options.issuer, options.scopes ?? []),
    });
    paths.set(path.path, item);
    tags.add(route.method.parent.name);
  }
  const problems = problemComponents();
  // A disclosure refusal's problem document carries a suggestion (problem-responses.ts).
  answerMessageRef(components, PeerGroupSuggestionSchema);
  const messages = components.schemas();
  for (const name of Object.keys(problems.schemas)) {
    if (name in messages) throw new Error(`schema "${name}": both a message and the problem document`);
  }
  return {
    openapi: "3.1.0",
    info: { title: "Commercial Policy Benchmark", version: options.version, description: DESCRIPTION },
    ...(options.serverUrl === undefined ? {} : { servers: [{ url: options.serverUrl }] }),
    tags: [...tags].map((name) => ({ name })),
    paths: Object.fromEntries(paths), // in the contract's order, which renderers keep
    components: {
      schemas: { ...messages, ...problems.schemas },
      responses: problems.responses,
      securitySchemes: securitySchemes(options.issuer),
    },
  };
}
