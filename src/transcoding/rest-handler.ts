import { ServerResponse } from "node:http";
import { constants as http2Constants, type Http2ServerRequest } from "node:http2";
import { fromBinary, toBinary, type DescMethod, type Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues } from "@connectrpc/connect";
import { createAsyncIterable, readAllBytes, type UniversalHandler } from "@connectrpc/connect/protocol";
import { errorFromJsonBytes } from "@connectrpc/connect/protocol-connect";
import { heldPlaceKey, turnHandOverKey, type TurnHandOver } from "../rpc/admission-interceptor.js";
import { decimalTextsKey } from "../rpc/decimal-texts.js";
import { DATASET_VERSION_HEADER } from "../rpc/dataset-version.js";
import { bindingProblemsKey, type InputProblem } from "../rpc/input-problems.js";
import { responseCaptureKey, type ResponseCapture } from "../rpc/response-capture.js";
import { ifNoneMatchHits, type AnswerCache, type CacheTicket } from "../load-control/answer-cache.js";
import { afterArrivals, inTurn } from "../load-control/turns.js";
import type { GatePlace } from "../load-control/admission-gate.js";
import { answerPieces } from "../load-control/answer-pieces.js";
import { chooseEncoding, compress, COMPRESS_MIN_BYTES, type ContentEncoding } from "./compression.js";
import { createBinder, type Binder, type BindingInputs } from "./field-binding.js";
import { parseJsonBody } from "./json-body.js";
import { readHttpRoutes, type HttpRoute } from "./http-routes.js";
import { byteLengthOf, type JsonBytes } from "./json-bytes.js";
import { fieldJson, messageJson } from "./json-writer.js";
import { problem, problemFromError, writeJsonBytes, writeProblem } from "./problem-document.js";
import { answeredWhole, type NodeRequest, type NodeResponse } from "./node-types.js";
import { readRequestBody, BodyNotReceivedError, BodyTooLargeError } from "./request-body.js";
import { canonicalRequest, createRememberedBindings, spellingOf, type BoundRequest } from "./remembered-bindings.js";
import { requestPath, splitRequestTarget } from "./request-target.js";
import { createRouteTable } from "./route-table.js";

export interface RestTranscoderOptions {
  /** The Connect handlers of every service; REST calls go through them, interceptors included. */
  handlers: readonly UniversalHandler[];
  /** Context values of a request (request id, logger), as the other protocols get them. */
  contextValues: (req: NodeRequest) => ContextValues;
  maxBodyBytes: number;
  /**
   * The place a call of this method takes at the admission gate as it arrives, before
   * its body is read, or why it is refused (the gate is full); undefined when it takes
   * none there. Shedding must cost less than the work it sheds.
   */
  hold?: (method: DescMethod, req: NodeRequest) => GatePlace | ConnectError | undefined;
  /**
   * Answers kept for repeated requests, with ETags. A request it can answer is
   * authorized with `authorize` (what the authentication interceptor does) and never
   * reaches its handler.
   */
  answers?: {
    cache: AnswerCache;
    /** Whether the caller is known at once to be authorized (a token verified a moment ago). */
    recognize: (req: NodeRequest) => boolean;
    authorize: (req: NodeRequest) => Promise<void>;
  };
}

/** No shared cache may keep the confidential answers; a client's own must revalidate (ETag). */
const CACHE_CONTROL = "private, no-cache";

/** Room for remembered bindings (remembered-bindings.ts), in characters: some thousands of requests. */
const REMEMBERED_BINDING_CHARS = 4 * 1024 * 1024;

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
  const bindings = createRememberedBindings(REMEMBERED_BINDING_CHARS);

  // The route table goes out with the handler: /openapi.json is written from it.
  return Object.assign(handleRest, { routes });

  function handleRest(req: NodeRequest, res: NodeResponse): void | Promise<void> {
    const path = requestPath(req);
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
    const place = options.hold?.(route.method, req);
    if (place instanceof ConnectError) return writeProblem(res, problemFromError(place));
    if (!place) return answerRest(req, res, route, pathVariables, undefined, undefined);
    return answerInPlace(req, res, route, pathVariables, place);
  }

  /**
   * A call that holds a place at the gate: it reads its request once the burst it came
   * in is all in, each of it placed or refused, and gives the place up if it ends first.
   */
  async function answerInPlace(
    req: NodeRequest,
    res: NodeResponse,
    route: HttpRoute,
    pathVariables: ReadonlyMap<string, string>,
    place: GatePlace,
  ): Promise<void> {
    try {
      const callerWatch = abortWhenCallerLeaves(res);
      if (!place.admitted) await afterArrivals();
      if (callerWatch.signal.aborted) return;
      await answerRest(req, res, route, pathVariables, place, callerWatch);
    } finally {
      place.leave();
    }
  }

  /** Reads, binds and answers a matched request; its place at the gate, if any, is taken by its handler's turn. */
  async function answerRest(
    req: NodeRequest,
    res: NodeResponse,
    route: HttpRoute,
    pathVariables: ReadonlyMap<string, string>,
    place: GatePlace | undefined,
    callerWatch: AbortController | undefined,
  ): Promise<void> {
    let body: string | undefined;
    if (route.body === "*") {
      try {
        body = (await readRequestBody(req, options.maxBodyBytes)).trim();
      } catch (error) {
        if (error instanceof BodyNotReceivedError) return; // the caller has gone: its line says so
        if (!(error instanceof BodyTooLargeError)) throw error;
        // The rest of the body is not wanted. An HTTP/1.1 connection ends after this answer.
        // HTTP/2 forbids connection headers (RFC 9113, 8.2.2): there the stream is reset
        // with NO_ERROR once the answer is out, which asks the client to stop sending
        // (RFC 9113, 8.1); else the body would be read, and dropped, to its end.
        if (req.httpVersionMajor !== 2)
          return writeProblem(res, problem(413, Code.ResourceExhausted, error.message), { connection: "close" });
        // The stream's own 'finish' (its answer handed on whole), not the response's, which
        // waits for the request's end too.
        const { stream } = req as Http2ServerRequest;
        stream.once("finish", () => stream.close(http2Constants.NGHTTP2_NO_ERROR));
        return writeProblem(res, problem(413, Code.ResourceExhausted, error.message));
      }
    }
    const spelling = spellingOf(req.method ?? "GET", req.url ?? "/", body);
    let bound: BoundRequest | UnboundRequest | undefined = bindings.get(spelling);
    if (!bound) {
      const fresh = bindRequest(route, pathVariables, req, body);
      if (fresh instanceof MalformedBodyError) {
        return writeProblem(
          res,
          problem(400, Code.InvalidArgument, "the body is not valid JSON", [{ field: "body", message: fresh.message }]),
        );
      }
      if ("canonical" in fresh) bindings.remember(spelling, fresh);
      bound = fresh;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    const ticket = "canonical" in bound ? options.answers?.cache.open(bound.canonical) : undefined;
    const cacheHeaders: Record<string, string> = ticket ? { etag: ticket.etag, "cache-control": CACHE_CONTROL } : {};
    if (ticket) {
      // Known at once when nothing had to be awaited: a hit stays synchronous.
      const answered = answerFromCache(req, res, ticket, cacheHeaders, encoding);
      if (answered === true || (answered instanceof Promise && (await answered))) return;
    }
    const handler = handlerOf.get(route.method)!;
    const problems = "problems" in bound ? bound.problems : [];
    const contextValues = options
      .contextValues(req)
      .set(bindingProblemsKey, problems)
      .set(decimalTextsKey, bound.decimalTexts)
      .set(heldPlaceKey, place);
    const turn: TurnHandOver = {};
    try {
      // Made only now when not queued: an answer from the cache pays for no listener.
      const { signal } = callerWatch ?? abortWhenCallerLeaves(res);
      const outcome = await invoke(handler, bound.input, req, signal, contextValues.set(turnHandOverKey, turn));
      if (outcome instanceof ConnectError) return writeProblem(res, problemFromError(outcome), challengeOf(outcome));
      const { output, dataVersion } = outcome;
      // An admitted call's answer is large: written in turns (turns.ts), a long list in slices.
      const answer = turn.release
        ? await (await inTurn(() => answerJson(route, output))).chunksInTurns(inTurn)
        : answerJson(route, output).chunks();
      if (!ticket?.keep(answer, dataVersion)) giveBackWhenWritten(res, answer);
      // An answer newer than the data its ETag would name goes without one (answer-cache.ts).
      const headers = ticket?.vouchesFor(dataVersion) === false ? {} : cacheHeaders;
      await sendAnswer(res, answer, withDataVersion(headers, dataVersion), encoding, ticket);
    } finally {
      turn.release?.();
    }
  }

  /**
   * Binds a request from its path variables and its query or body: a BoundRequest when
   * it has no problems, else its problems (which the handler's interceptor answers,
   * after authentication, as any protocol's), or an error when the body is not JSON.
   */
  function bindRequest(
    route: HttpRoute,
    pathVariables: ReadonlyMap<string, string>,
    req: NodeRequest,
    body: string | undefined,
  ): BoundRequest | UnboundRequest | MalformedBodyError {
    const inputs =
      body === undefined
        ? { pathVariables, parameters: splitRequestTarget(req).query }
        : bodyInputs(pathVariables, body);
    if (inputs instanceof MalformedBodyError) return inputs;
    const { message, problems, decimalTexts } = binders.get(route)!.bind(inputs);
    const input = toBinary(route.method.input, message);
    if (problems.length > 0) return { input, decimalTexts, problems };
    return { input, decimalTexts, canonical: canonicalRequest(route, input, decimalTexts) };
  }

  /**
   * Answers a 304 or the kept answer, once the caller is authorized; false when the
   * handler must answer. A caller recognized at once (a token verified a moment ago,
   * as most repeated requests carry) is answered without a single await.
   */
  function answerFromCache(
    req: NodeRequest,
    res: NodeResponse,
    ticket: CacheTicket,
    headers: Record<string, string>,
    encoding: ContentEncoding | undefined,
  ): boolean | Promise<boolean> {
    const unchanged = ifNoneMatchHits(req.headers["if-none-match"], ticket.etag);
    if (!unchanged && !ticket.cached) return false;
    const answers = options.answers!;
    if (answers.recognize(req)) return answerKept(res, answers.cache, ticket, unchanged, headers, encoding);
    return answers.authorize(req).then(
      () => answerKept(res, answers.cache, ticket, unchanged, headers, encoding),
      (error: unknown) => {
        if (!(error instanceof ConnectError)) throw error;
        writeProblem(res, problemFromError(error), challengeOf(error));
        return true;
      },
    );
  }
}

/**
 * Gives the answer's lent pieces back (answer-pieces.ts) once an HTTP/1.1 response has
 * finished: its last write's callback has run, so the kernel holds every byte (or, when
 * the connection was destroyed first, the writes were cancelled and nothing reads them).
 * HTTP/2 answers are left out: when nghttp2 has done with a stream's bytes is not
 * checked here, so their pieces go to the collector.
 */
function giveBackWhenWritten(res: NodeResponse, chunks: readonly Buffer[]): void {
  // Only answers that hold pieces (limit adequacy's) pay for a listener.
  if (res instanceof ServerResponse && answerPieces.holdsLent(chunks))
    res.once("finish", () => answerPieces.giveBack(chunks));
}

/** A 304, or the kept answer: true once it is on its way. */
function answerKept(
  res: NodeResponse,
  cache: AnswerCache,
  ticket: CacheTicket,
  unchanged: boolean,
  headers: Record<string, string>,
  encoding: ContentEncoding | undefined,
): true | Promise<true> {
  const told = withDataVersion(headers, ticket.cachedDataVersion);
  if (unchanged) {
    cache.notModified();
    res.writeHead(304, told);
    res.end();
    return true;
  }
  const sending = sendAnswer(res, ticket.cached!, told, encoding, ticket);
  return sending ? sending.then(() => true) : true;
}

/**
 * Writes an answer's JSON: compressed when the caller accepts it and it is large enough
 * to gain (from the cache's compressed copy when one is kept, else compressed now and
 * kept). Returns a promise only when it has to compress.
 */
function sendAnswer(
  res: NodeResponse,
  chunks: readonly Buffer[],
  headers: Record<string, string>,
  encoding: ContentEncoding | undefined,
  ticket: CacheTicket | undefined,
): Promise<void> | undefined {
  if (byteLengthOf(chunks) < COMPRESS_MIN_BYTES)
    return void writeJsonBytes(res, 200, chunks, "application/json", headers);
  // Whether compressed or not, this answer's bytes depend on Accept-Encoding (RFC 9110 12.5.5).
  const varying = { ...headers, vary: "accept-encoding" };
  if (encoding === undefined) return void writeJsonBytes(res, 200, chunks, "application/json", varying);
  const encoded = { ...varying, "content-encoding": encoding };
  const kept = ticket?.encoded(encoding);
  if (kept) return void writeJsonBytes(res, 200, kept, "application/json", encoded);
  return compress(chunks, encoding).then((pieces) => {
    ticket?.keepEncoded(encoding, pieces);
    writeJsonBytes(res, 200, pieces, "application/json", encoded);
  });
}

/** Binding inputs from a body's text (already trimmed). */
function bodyInputs(pathVariables: ReadonlyMap<string, string>, text: string): BindingInputs | MalformedBodyError {
  if (text === "") return { pathVariables, body: {} }; // SEMANTICS.md 11: an empty body counts as {}
  let parsed: unknown;
  try {
    parsed = parseJsonBody(text);
  } catch (error) {
    // The spec's own clients send `key=value&...` bodies too: read them like a query string.
    if (!/^[{["]/.test(text) && text.includes("=")) return { pathVariables, parameters: new URLSearchParams(text) };
    return new MalformedBodyError((error as Error).message);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return new MalformedBodyError("must be a JSON object");
  }
  return { pathVariables, body: parsed as Record<string, unknown> };
}

/** A request bound with problems: the handler answers them. */
interface UnboundRequest {
  input: Uint8Array;
  decimalTexts: ReadonlyMap<string, string>;
  problems: InputProblem[];
}

class MalformedBodyError extends Error {}

/** The RFC 6750 challenge an authentication error carries, for REST callers. */
function challengeOf(error: ConnectError): Record<string, string> {
  const challenge = error.metadata.get("www-authenticate");
  return challenge ? { "www-authenticate": challenge } : {};
}

/**
 * Calls a Connect handler in-process with the binary request; answers its answer
 * message and the dataset version it said it was read from, or the error.
 */
async function invoke(
  handler: UniversalHandler,
  input: Uint8Array,
  req: NodeRequest,
  signal: AbortSignal,
  contextValues: ContextValues,
): Promise<{ output: Message; dataVersion: string | undefined } | ConnectError> {
  const header = new Headers({ "content-type": "application/proto", "connect-protocol-version": "1" });
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") header.set(name, value);
  }
  const capture: ResponseCapture = {};
  const response = await handler({
    httpVersion: "1.1",
    url: new URL(handler.requestPath, "http://localhost").toString(),
    method: "POST",
    header,
    body: createAsyncIterable([input]),
    signal,
    contextValues: contextValues.set(responseCaptureKey, capture),
  });
  const bytes = response.body ? await readAllBytes(response.body, Number.MAX_SAFE_INTEGER) : new Uint8Array();
  if (response.status !== 200) {
    return errorFromJsonBytes(bytes, response.header, new ConnectError(`HTTP ${response.status}`, Code.Internal));
  }
  return {
    output: capture.message ?? fromBinary(handler.method.output, bytes),
    dataVersion: response.header?.get(DATASET_VERSION_HEADER) ?? undefined,
  };
}

/**
 * Aborts once the caller has gone before its answer was written whole: the request's
 * close comes once its body is read, the response's when the connection goes
 * (nodejs/node#40775).
 */
function abortWhenCallerLeaves(res: NodeResponse): AbortController {
  const abort = new AbortController();
  res.once("close", () => {
    if (!answeredWhole(res)) abort.abort();
  });
  return abort;
}

/** The answer's headers, with the dataset version it was read from when it is known. */
function withDataVersion(headers: Record<string, string>, dataVersion: string | undefined): Record<string, string> {
  return dataVersion === undefined ? headers : { ...headers, [DATASET_VERSION_HEADER]: dataVersion };
}

/** The answer's JSON: the whole message, or the field the route's response_body names. */
function answerJson(route: HttpRoute, output: Message): JsonBytes {
  if (route.responseBody === "") return messageJson(route.method.output, output);
  return fieldJson(
    route.method.output.fields.find((f) => f.name === route.responseBody)!,
    output,
  );
}
