import { DATABASE_RETRY_SECONDS } from "../rpc/refusal.js";
import type { JsonValue } from "./json-value.js";
import { byteLengthOf } from "./json-bytes.js";
import { restJson } from "./json-writer.js";
import type { NodeResponse } from "./node-types.js";
import { STATUS_CODES } from "node:http";
import type { ConnectError } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import { DisclosureRefusalSchema, InputProblemsSchema } from "../../gen/commercialpolicybenchmark/v2/errors_pb.js";
import { PeerGroupSuggestionSchema } from "../../gen/commercialpolicybenchmark/v2/peer_group_pb.js";
import { codeName, httpStatusOf } from "../rpc/http-status.js";
import { summarizeProblems } from "../rpc/input-problems.js";

/** Seconds a caller should wait after a 503, while the database is away. */
const RETRY_AFTER_SECONDS = String(DATABASE_RETRY_SECONDS);

/** An RFC 9457 problem document, with the Connect code and every input problem. */
export interface Problem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: { field: string; message: string; position?: number }[];
  /**
   * A peer group refused under the disclosure rule: the condition, and its threshold
   * (never the shares found), and the best wider group that passes (SEMANTICS.md
   * section 14), or null when none does.
   */
  disclosure?: { condition: string; threshold: number; suggestion: JsonValue };
}

/**
 * The problem document for an error a handler answered. `invalid_argument` lists
 * each problem of the `InputProblems` detail; other errors carry their message,
 * which the handlers keep free of internals.
 */
export function problemFromError(error: ConnectError): Problem {
  const status = httpStatusOf(error.code);
  const problems = error.findDetails(InputProblemsSchema).flatMap((detail) => detail.problems);
  if (error.code === Code.InvalidArgument && problems.length > 0) {
    return {
      ...base(status, error.code),
      detail: summarizeProblems(problems),
      errors: problems.map(({ field, message, position }) =>
        position === undefined ? { field, message } : { field, message, position },
      ),
    };
  }
  const [refusal] = error.findDetails(DisclosureRefusalSchema);
  if (refusal) {
    const suggestion = refusal.suggestion ? restJson(PeerGroupSuggestionSchema, refusal.suggestion) : null;
    return {
      ...base(status, error.code),
      detail: error.rawMessage,
      disclosure: { condition: refusal.condition, threshold: refusal.threshold, suggestion },
    };
  }
  return { ...base(status, error.code), detail: error.rawMessage };
}

export function problem(status: number, code: Code, detail: string, errors?: Problem["errors"]): Problem {
  return { ...base(status, code), detail, ...(errors ? { errors } : {}) };
}

function base(status: number, code: Code) {
  return { status, code: codeName(code), title: STATUS_CODES[status] ?? "Error" };
}

export function writeProblem(res: NodeResponse, body: Problem, headers: Record<string, string> = {}): void {
  if (body.status === 503) headers["retry-after"] = RETRY_AFTER_SECONDS;
  writeJson(res, body.status, body as unknown as JsonValue, "application/problem+json", headers);
}

export function writeJson(
  res: NodeResponse,
  status: number,
  body: JsonValue,
  contentType = "application/json",
  headers: Record<string, string> = {},
): void {
  writeJsonBytes(res, status, [Buffer.from(JSON.stringify(body))], contentType, headers);
}

/** Writes JSON already encoded, as chunks in order. */
export function writeJsonBytes(
  res: NodeResponse,
  status: number,
  chunks: readonly Buffer[],
  contentType = "application/json",
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader("content-type", contentType);
  res.setHeader("content-length", byteLengthOf(chunks));
  res.statusCode = status;
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]!);
  res.end(chunks[chunks.length - 1] ?? Buffer.alloc(0));
}
