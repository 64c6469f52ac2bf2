import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues } from "@connectrpc/connect";
import { createAsyncIterable, readAllBytes, type UniversalHandler } from "@connectrpc/connect/protocol";
import { errorFromJsonBytes } from "@connectrpc/connect/protocol-connect";
import { decimalTextsKey } from "../rpc/decimal-texts.js";
import { bindingProblemsKey } from "../rpc/input-problems.js";
import { responseCaptureKey, type ResponseCapture } from "../rpc/response-capture.js";
import { ifNoneMatchHits, type AnswerCache, type CacheTicket } from "../server/answer-cache.js";
import { chooseEncoding, type ContentEncoding } from "./compression.js";
import { createBinder, type Binder, type BindingInputs } from "./field-binding.js";
import { parseJsonBody } from "./json-body.js";
import { readHttpRoutes, type HttpRoute } from "./http-routes.js";
import { fieldJson, messageJson } from "./json-writer.js";
import { problem, problemFromError, writeJsonBytes, writeProblem } from "./problem-document.js";
import type { NodeRequest, NodeResponse } from "./node-types.js";
import { readRequestBody, BodyTooLargeError } from "./request-body.js";
import { splitRequestTarget } from "./request-target.js";
import { createRouteTable } from "./route-table.js";

export interface RestTranscoderOptions {
  /** The Connect handlers of every service; REST calls go through them, interceptors included. */
  handlers: readonly UniversalHandler[];
  /** Context values of a request (request id, logger), as the other protocols get them. */
  contextValues: (req: NodeRequest) => ContextValues;
  maxBodyBytes: number;
  /**
   * Answers kept for repeated requests, with ETags. A request it can answer is
   * authorized with `authorize` (what the authentication interceptor does) and never
   * reaches its handler.
   */
  answers?: { cache: AnswerCache; authorize: (req: NodeRequest) => Promise<void> };
}

/** No shared cache may keep the confidential answers; a client's own must revalidate (ETag). */
const CACHE_CONTROL = "private, no-cache";

/** Headers a REST call forwards to its handler; the handler sees what gRPC callers send. */
const FORWARDED_HEADERS = ["authorization", "x-request-id", "user-agent"];

/**
 * The REST face: matches a request against the google.api.http rules of the
 * handlers' methods, binds it to the request message, invokes the method's Connect
 * handler in-process (so authentication and every interceptor apply exactly as
 * for gRPC), and writes the answer as the spec's JSON or a problem document.
 */
export function createRestTranscoder(options: RestTranscoderOptions) {
  const handlerOf = new Map(options.handlers.map((h) => [h.method, h]));
  const routes = readHttpRoutes(handlerOf.keys());
  const table = createRouteTable(routes);
  const binders = new Map<HttpRoute, Binder>(routes.map((r) => [r, createBinder(r.method.input)]));

  return async function handleRest(req: NodeRequest, res: NodeResponse): Promise<void> {
    const { path, query } = splitRequestTarget(req);
    const match = table.match(req.method ?? "GET", path);
    if (match.outcome === "not-found") {
      return writeProblem(res, problem(404, Code.NotFound, `no operation at ${path}`));
    }
    if (match.outcome === "method-not-allowed") {
      return writeProblem(res, problem(405, Code.Unimplemented, `${req.method} is not allowed on ${path}`), {
        allow: match.allow.join(", "),
      });
    }
    const { route, pathVariables } = match;
    let inputs: BindingInputs;
    try {
      inputs = route.body === "*" ? { pathVariables, ...(await readBodyInputs(req, options.maxBodyBytes)) } : { pathVariables, parameters: query };
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return writeProblem(res, problem(413, Code.ResourceExhausted, error.message));
      }
      if (error instanceof MalformedBodyError) {
        return writeProblem(res, problem(400, Code.InvalidArgument, "the body is not valid JSON", [{ field: "body", message: error.message }]));
      }
      throw error;
    }
    const { message, problems, decimalTexts } = binders.get(route)!.bind(inputs);
    const input = toBinary(route.method.input, message);
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    const ticket = problems.length === 0 ? options.answers?.cache.open(canonicalRequest(route, input, decimalTexts)) : undefined;
    const cacheHeaders: Record<string, string> = ticket ? { etag: ticket.etag, "cache-control": CACHE_CONTROL } : {};
    if (ticket && (await answerFromCache(req, res, ticket, cacheHeaders, encoding))) return;
    const handler = handlerOf.get(route.method)!;
    const contextValues = options.contextValues(req).set(bindingProblemsKey, problems).set(decimalTextsKey, decimalTexts);
    const answer = await invoke(handler, route, input, req, contextValues);
    if (answer instanceof ConnectError) return writeProblem(res, problemFromError(answer), challengeOf(answer));
    ticket?.keep(answer);
    writeJsonBytes(res, 200, answer, "application/json", cacheHeaders, encoding);
  };

  /** Answers a 304 or the kept answer, once the caller is authorized; false when the handler must answer. */
  async function answerFromCache(
    req: NodeRequest,
    res: NodeResponse,
    ticket: CacheTicket,
    headers: Record<string, string>,
    encoding: ContentEncoding | undefined,
  ): Promise<boolean> {
    const unchanged = ifNoneMatchHits(req.headers["if-none-match"], ticket.etag);
    if (!unchanged && !ticket.cached) return false;
    try {
      await options.answers!.authorize(req);
    } catch (error) {
      if (!(error instanceof ConnectError)) throw error;
      writeProblem(res, problemFromError(error), challengeOf(error));
      return true;
    }
    if (unchanged) {
      options.answers!.cache.notModified();
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    writeJsonBytes(res, 200, ticket.cached!, "application/json", headers, encoding);
    return true;
  }
}

/**
 * A request as the cache knows it: the method and its bound message, in binary (so aliases,
 * parameter spelling and a comma list or an array come to one form), with the decimal
 * text of each amount, which the answer may depend on.
 */
function canonicalRequest(route: HttpRoute, input: Uint8Array, decimalTexts: ReadonlyMap<string, string>): string {
  const texts = [...decimalTexts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([field, text]) => `${field}=${text}`);
  return [route.method.parent.typeName, route.method.name, Buffer.from(input).toString("base64"), ...texts].join("\n");
}

async function readBodyInputs(req: NodeRequest, maxBytes: number): Promise<Omit<BindingInputs, "pathVariables">> {
  const text = (await readRequestBody(req, maxBytes)).trim();
  if (text === "") return { body: {} }; // SEMANTICS.md 11: an empty body counts as {}
  let parsed: unknown;
  try {
    parsed = parseJsonBody(text);
  } catch (error) {
    // The spec's own clients send `key=value&...` bodies too: read them like a query string.
    if (!/^[{["]/.test(text) && text.includes("=")) return { parameters: new URLSearchParams(text) };
    throw new MalformedBodyError((error as Error).message);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new MalformedBodyError("must be a JSON object");
  }
  return { body: parsed as Record<string, unknown> };
}

class MalformedBodyError extends Error {}

/** The RFC 6750 challenge an authentication error carries, for REST callers. */
function challengeOf(error: ConnectError): Record<string, string> {
  const challenge = error.metadata.get("www-authenticate");
  return challenge ? { "www-authenticate": challenge } : {};
}

/** Calls a Connect handler in-process with the binary request; answers the JSON bytes to send, or the error. */
async function invoke(
  handler: UniversalHandler,
  route: HttpRoute,
  input: Uint8Array,
  req: NodeRequest,
  contextValues: ContextValues,
): Promise<Buffer[] | ConnectError> {
  const header = new Headers({ "content-type": "application/proto", "connect-protocol-version": "1" });
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") header.set(name, value);
  }
  const abort = new AbortController();
  req.once("close", () => abort.abort());
  const capture: ResponseCapture = {};
  const response = await handler({
    httpVersion: "1.1",
    url: new URL(handler.requestPath, "http://localhost").toString(),
    method: "POST",
    header,
    body: createAsyncIterable([input]),
    signal: abort.signal,
    contextValues: contextValues.set(responseCaptureKey, capture),
  });
  const bytes = response.body ? await readAllBytes(response.body, Number.MAX_SAFE_INTEGER) : new Uint8Array();
  if (response.status !== 200) {
    return errorFromJsonBytes(bytes, response.header, new ConnectError(`HTTP ${response.status}`, Code.Internal));
  }
  const output = capture.message ?? fromBinary(route.method.output, bytes);
  if (route.responseBody === "") return messageJson(route.method.output, output);
  return fieldJson(route.method.output.fields.find((f) => f.name === route.responseBody)!, output);
}
