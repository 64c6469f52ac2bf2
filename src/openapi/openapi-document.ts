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
import { descriptionOf } from "./proto-descriptions.js";
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
  "- **Names match case-insensitively, ignoring spaces.** Each input is documented under one canonical spelling: the JSON name, or on the limit-adequacy GET the spec's capitalized query names (`Naics`, `CoverageId`, `LobId`, ...). The service accepts any case and spacing of it (`clientlimit`, `ClientLimit`), and the aliases of spec 2.1: `exposure` for exposureType; `lineOfBusiness`, `lineOf Business` and `lobId` for lineOfBusinessId (each input lists its own in `x-aliases`). A gateway that validates requests against this document must compare names the same way, or it refuses calls the service answers. Unknown names are ignored.",
  "- Required inputs are marked `required`; without one the answer is a 400 naming it.",
  "- List inputs take comma-separated values, repeated parameters or JSON arrays. Numbers may also come as numeric strings.",
  "- A POST body is read as JSON whatever its Content-Type; an empty body counts as `{}`.",
  "- Answers carry every field; unset optional and message fields are `null`; 64-bit integers are JSON numbers. Each carries an `ETag`: send it back as `If-None-Match` for a 304 while the data is unchanged.",
  "- Errors are RFC 9457 problem documents (`application/problem+json`).",
  "- Authentication: `Authorization: Bearer <access token>`. Get a token with `cpb token` (or, under `cpb dev`, from the banner it prints); in the reference page at `/docs`, paste it under the bearerToken scheme.",
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
  const tags = new Map<string, JsonObject>();
  const operations: { route: HttpRoute; path: string; operation: JsonObject }[] = [];
  for (const route of routes) {
    const path = openApiPath(route);
    // Two spellings of one shape would be two path items for the same requests.
    const shape = templateShape(route.template);
    const spelled = shapes.get(shape);
    if (spelled !== undefined && spelled !== path.path)
      throw new Error(`${path.path} and ${spelled} are one path spelled twice`);
    shapes.set(shape, path.path);
    const item = paths.get(path.path) ?? {};
    const operation = operationObject(route, path, {
      components,
      operationId: ids.get(route)!,
      security: securityRequirement(options.issuer, options.scopes ?? []),
    });
    item[route.httpMethod.toLowerCase()] = operation;
    operations.push({ route, path: path.path, operation });
    paths.set(path.path, item);
    const service = route.method.parent;
    const about = descriptionOf(service);
    tags.set(service.name, { name: service.name, ...(about ? { description: about } : {}) });
  }
  distinguishSummaries(operations);
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
    tags: [...tags.values()],
    paths: Object.fromEntries(paths), // in the contract's order, which renderers keep
    components: {
      schemas: { ...messages, ...problems.schemas },
      responses: problems.responses,
      securitySchemes: securitySchemes(options.issuer),
    },
  };
}

/**
 * A sidebar lists operations by summary, and one rpc comment (or two alike) may be the
 * summary of several bindings: each shared summary gets its method, then its path's
 * last segment, until every operation's is its own.
 */
function distinguishSummaries(operations: readonly { route: HttpRoute; path: string; operation: JsonObject }[]): void {
  const shared = (op: { operation: JsonObject }) =>
    operations.filter((other) => other.operation.summary === op.operation.summary).length > 1;
  const byMethod = operations.filter(shared);
  for (const { route, operation } of byMethod) operation.summary = `${String(operation.summary)} (${route.httpMethod})`;
  const byPath = operations.filter(shared);
  for (const { path, operation } of byPath)
    operation.summary = `${String(operation.summary).slice(0, -1)}, ${path.slice(path.lastIndexOf("/") + 1)})`;
}
