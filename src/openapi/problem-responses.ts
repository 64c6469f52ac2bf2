import { STATUS_CODES } from "node:http";
import { Code } from "@connectrpc/connect";
import { codeName, httpStatusOf } from "../rpc/http-status.js";
import type { HttpRoute } from "../transcoding/http-routes.js";
import type { JsonObject } from "./json-object.js";
import type { OpenApiPath } from "./openapi-path.js";

/**
 * Error answers: RFC 9457 problem documents as problem-document.ts writes them, with
 * the statuses of CONVENTIONS.md ("Errors"). Each status is one reusable Response
 * Object in `components/responses`; its `code`s come from the one code-to-status table
 * (rpc/http-status.ts), so a code mapped to another status moves with it.
 */

interface ErrorStatus {
  status: number;
  why: string;
  /** Connect codes answered with this status; by default those the table maps to it. */
  codes?: Code[];
  headers?: JsonObject;
  /** Whether a route can answer it; undefined: every route can. */
  appliesTo?: (route: HttpRoute, path: OpenApiPath) => boolean;
}

const CHALLENGE: JsonObject = {
  "WWW-Authenticate": {
    description:
      'The RFC 6750 challenge: `Bearer realm="commercialpolicybenchmark"`, with `error` and `error_description` for a bad token or a missing scope.',
    required: true,
    schema: { type: "string" },
  },
};

const ERROR_STATUSES: readonly ErrorStatus[] = [
  {
    status: 400,
    why: "Bad input, malformed JSON or a bad `$filter`: `errors` lists the problems of the request (SEMANTICS.md section 11). Or, with `failed_precondition`, a peer group the disclosure rule refuses (DISCLOSURE_RULE=standard): `disclosure` names the condition and suggests a wider group.",
  },
  { status: 401, why: "No access token, or a bad or expired one.", headers: CHALLENGE },
  { status: 403, why: "The access token lacks a required scope.", headers: CHALLENGE },
  // Only a lookup by id finds nothing; a path that matches no route is no documented operation.
  { status: 404, why: "No record with that id.", appliesTo: (_route, path) => path.variables.length > 0 },
  // rest-handler.ts answers it itself, with `unimplemented`, for a method no route of
  // the path has. No documented operation answers it (its method is the path's), so no
  // operation refers to it; it is kept in the components for readers and tools.
  {
    status: 405,
    why: "A known path with a method it does not take.",
    codes: [Code.Unimplemented],
    headers: { Allow: { description: "The methods the path takes.", required: true, schema: { type: "string" } } },
    appliesTo: () => false,
  },
  {
    status: 413,
    why: "The body is over the size limit; the connection is closed after this answer.",
    appliesTo: (route) => route.body !== "",
  },
  { status: 500, why: "Anything else; the body never shows internals." },
  {
    status: 503,
    why: "The database cannot be reached, or the server is at capacity: retry after `Retry-After` seconds.",
    headers: {
      "Retry-After": {
        description: "Seconds to wait before retrying (RFC 9110, 10.2.3).",
        required: true,
        schema: { type: "integer", minimum: 0 },
      },
    },
  },
];

const CONNECT_CODES = Object.values(Code).filter((value): value is Code => typeof value === "number");

/** problem-document.ts's `Problem`; no `type` member, so it is `about:blank` (RFC 9457, 4.2.1). */
const PROBLEM_SCHEMAS: JsonObject = {
  Problem: {
    type: "object",
    properties: {
      status: { type: "integer", format: "int32", description: "The HTTP status of the answer." },
      code: {
        type: "string",
        enum: CONNECT_CODES.map(codeName),
        description: "The Connect code; gRPC and Connect callers get the same code.",
      },
      title: { type: "string", description: "The status's reason phrase." },
      detail: { type: "string" },
      errors: {
        type: "array",
        items: { $ref: "#/components/schemas/ProblemError" },
        description: "With `invalid_argument`: every problem of the request.",
      },
      disclosure: { $ref: "#/components/schemas/DisclosureRefusal" },
    },
    required: ["status", "code", "title", "detail"],
  },
  DisclosureRefusal: {
    type: "object",
    description:
      "With `failed_precondition`: why the disclosure rule refused the peer group. It never states the shares found.",
    properties: {
      condition: { type: "string", enum: ["min_companies", "max_top2_share", "max_source_share"] },
      threshold: {
        type: "number",
        description: "The threshold in force: companies for `min_companies`, else a percentage (25 is 25%).",
      },
      suggestion: {
        anyOf: [{ $ref: "#/components/schemas/PeerGroupSuggestion" }, { type: "null" }],
        description:
          "The best wider peer group that passes the rule and holds at least 30 programs (SEMANTICS.md section 14), ready to send again; null when none does.",
      },
    },
    required: ["condition", "threshold", "suggestion"],
  },
  ProblemError: {
    type: "object",
    properties: {
      field: {
        type: "string",
        description: "The input's canonical name, as in the spec's JSON form, whatever spelling the request used.",
      },
      message: { type: "string" },
      position: {
        type: "integer",
        format: "int32",
        minimum: 0,
        description: "For `$filter`: where the offending token starts, in code points.",
      },
    },
    required: ["field", "message"],
  },
};

/** The name of a status's response in `components/responses`: its reason phrase, without spaces. */
function responseName(status: number): string {
  return (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z0-9]/g, "");
}

/** The `Problem` and `ProblemError` schemas, and one response per error status. */
export function problemComponents(): { schemas: JsonObject; responses: JsonObject } {
  const responses = ERROR_STATUSES.map(({ status, why, codes, headers }): [string, JsonObject] => {
    const names = (codes ?? CONNECT_CODES.filter((code) => httpStatusOf(code) === status)).map(
      (code) => `\`${codeName(code)}\``,
    );
    return [
      responseName(status),
      {
        description: `${why} ${names.length > 1 ? "Codes" : "Code"}: ${names.join(", ")}.`,
        ...(headers ? { headers } : {}),
        content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
      },
    ];
  });
  // Copies: a caller changing its document must not change the next one.
  return structuredClone({ schemas: PROBLEM_SCHEMAS, responses: Object.fromEntries(responses) });
}

/** The error responses of one route's operation, as `$ref`s by status. */
export function errorResponses(route: HttpRoute, path: OpenApiPath): JsonObject {
  return Object.fromEntries(
    ERROR_STATUSES.filter(({ appliesTo }) => appliesTo?.(route, path) ?? true).map(({ status }) => [
      String(status),
      { $ref: `#/components/responses/${responseName(status)}` },
    ]),
  );
}
