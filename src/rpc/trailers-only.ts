import { wrappedHandler } from "./wrapped-handler.js";
import type { UniversalHandler, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { trailerFlag, trailerParse } from "@connectrpc/connect/protocol-grpc-web";
import type { Code } from "@connectrpc/connect";
import { requestInfoKey, type RequestInfo } from "../load-control/request-info.js";
import { codeName } from "./http-status.js";

/**
 * gRPC and gRPC-Web errors answered before any message go out "trailers-only": the
 * status in the response's headers, no body, no trailers (gRPC over HTTP/2, Responses).
 * connect-es sends headers, then the status in trailers; a gRPC client counts a call
 * that got headers as committed and never retries it, so a load-shed `unavailable`
 * defeated every client's retry policy (gRPC A6: only trailers-only answers are
 * retried, and `grpc-retry-pushback-ms` is read from them). Over HTTP/2 the head is
 * then written as one HEADERS frame that ends the stream (deferred-head.ts).
 *
 * Only errors pay: a gRPC answer's trailers say "0" until something fails, and a
 * failure before the first message is already in them when the handler resolves.
 */
export function answerErrorsTrailersOnly(handler: UniversalHandler): UniversalHandler {
  const grpcWeb = handler.protocolNames.includes("grpc-web");
  const grpc = handler.protocolNames.includes("grpc");
  const wrapped = async (req: Parameters<UniversalHandler>[0]) => {
    const res = await handler(req);
    const contentType = res.header?.get("content-type") ?? "";
    let answer = res;
    if (grpcWeb && contentType.startsWith("application/grpc-web")) answer = await grpcWebTrailersOnly(res);
    else if (grpc && contentType.startsWith("application/grpc")) answer = await grpcTrailersOnly(res);
    noteStatusSent(req.contextValues?.get(requestInfoKey), answer.header?.get("grpc-status"));
    return answer;
  };
  return wrappedHandler(handler, wrapped);
}

/** gRPC: an error status in the trailers and no message in the body. */
async function grpcTrailersOnly(res: UniversalServerResponse): Promise<UniversalServerResponse> {
  const status = res.trailer?.get("grpc-status");
  if (!res.trailer || status === null || status === undefined || status === "0") return res;
  const first = await firstChunk(res);
  if (first.rest) return { ...res, body: first.rest };
  // The body is done, so the trailers are final (a wrapper may have relabelled them at its end).
  if (res.trailer.get("grpc-status") === "0") return { ...res, body: undefined };
  return { ...res, header: joined(res.header, res.trailer), body: undefined, trailer: undefined };
}

/**
 * gRPC-Web: the trailers are the body's last frame (flag 0x80). A body whose first frame
 * is the trailers' had no message: they move to the headers and the body goes.
 */
async function grpcWebTrailersOnly(res: UniversalServerResponse): Promise<UniversalServerResponse> {
  const first = await firstChunk(res);
  if (!first.rest) return { ...res, body: undefined };
  const frame = first.chunk!;
  const length = frame.length >= FRAME_HEADER_BYTES ? new DataView(frame.buffer, frame.byteOffset).getUint32(1) : -1;
  const onlyTrailers = (frame[0]! & trailerFlag) === trailerFlag && frame.length === FRAME_HEADER_BYTES + length;
  if (!onlyTrailers) return { ...res, body: first.rest };
  const trailer = trailerParse(frame.subarray(FRAME_HEADER_BYTES));
  if ((trailer.get("grpc-status") ?? "0") === "0") return { ...res, body: first.rest };
  const header = joined(res.header, trailer);
  header.delete("content-length");
  return { ...res, header, body: undefined };
}

const FRAME_HEADER_BYTES = 5;

/**
 * The code of an error connect-es answered before any interceptor ran (a deadline
 * that passed while the request was read, say), for the request's log line, which
 * would otherwise know only that HTTP said 200.
 */
function noteStatusSent(info: RequestInfo | undefined, status: string | null | undefined): void {
  if (info && info.outcome.code === undefined && status) info.outcome.code = codeName(Number(status) as Code);
}

/** The body's first chunk, and the body again from it (both undefined when it had none). */
async function firstChunk(
  res: UniversalServerResponse,
): Promise<{ chunk?: Uint8Array; rest?: AsyncIterable<Uint8Array> }> {
  const body = res.body;
  if (!body || !(Symbol.asyncIterator in body)) return {};
  const it = body[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return {};
  async function* again(): AsyncGenerator<Uint8Array> {
    yield first.value;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { chunk: first.value, rest: again() };
}

function joined(header: Headers | undefined, trailer: Headers): Headers {
  const all = new Headers(header);
  trailer.forEach((value, name) => all.set(name, value));
  return all;
}
