import { wrappedHandler } from "./wrapped-handler.js";
import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalHandler, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { errorFromJsonBytes, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerParse, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";

/**
 * connect-es answers a request body that is not valid protobuf with `internal` ("parse
 * binary: premature EOF"), a 500 over the Connect protocol, before any interceptor runs.
 * It is the caller's mistake, the binary twin of malformed JSON: `invalid_argument`
 * (connect-go says the same), with a message that shows no parser internals. This
 * wraps a handler and relabels that one error in each protocol's own place for it: the
 * Connect error body, the gRPC trailers, the gRPC-Web trailer frame.
 */
export function relabelParseFailures(handler: UniversalHandler): UniversalHandler {
  const relabelled = new ConnectError(
    `the request body is not a valid ${handler.method.input.typeName} message`,
    Code.InvalidArgument,
  );
  const wrapped = async (req: Parameters<UniversalHandler>[0]) => {
    const res = await handler(req);
    if (res.status === 500) return relabelConnectError(res, relabelled);
    const body = res.body;
    return body && Symbol.asyncIterator in body ? { ...res, body: relabelTrailers(res, body, relabelled) } : res;
  };
  return wrappedHandler(handler, wrapped);
}

const isParseFailure = (error: ConnectError | undefined) =>
  error?.code === Code.Internal && error.rawMessage.startsWith("parse binary:");

/** Connect: a unary error is the whole (small) body, as JSON. */
async function relabelConnectError(
  res: UniversalServerResponse,
  relabelled: ConnectError,
): Promise<UniversalServerResponse> {
  const chunks: Uint8Array[] = [];
  if (res.body && Symbol.asyncIterator in res.body) for await (const chunk of res.body) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  let error: ConnectError | undefined;
  try {
    error = errorFromJsonBytes(body, undefined, new ConnectError("not an error body", Code.Unknown));
  } catch {
    error = undefined;
  }
  if (!isParseFailure(error)) return { ...res, body: oneChunk(body) };
  const header = new Headers(res.header);
  header.delete("content-length");
  return { ...res, status: 400, header, body: oneChunk(errorToJsonBytes(relabelled, {})) };
}

/**
 * gRPC: the status is in the trailers, complete once the body has been sent.
 * gRPC-Web: the trailers are the body's last frame (flag 0x80); a parse failure comes
 * before any answer, so that frame is all there is to look at.
 */
async function* relabelTrailers(
  res: UniversalServerResponse,
  body: AsyncIterable<Uint8Array>,
  relabelled: ConnectError,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) yield isTrailerFrame(chunk) ? relabelTrailerFrame(chunk, relabelled) : chunk;
  if (res.trailer && isParseFailure(findTrailerError(res.trailer))) setTrailerStatus(res.trailer, relabelled);
}

const FRAME_HEADER_BYTES = 5;

function isTrailerFrame(chunk: Uint8Array): boolean {
  return chunk.length >= FRAME_HEADER_BYTES && (chunk[0]! & trailerFlag) === trailerFlag;
}

function relabelTrailerFrame(frame: Uint8Array, relabelled: ConnectError): Uint8Array {
  const length = new DataView(frame.buffer, frame.byteOffset).getUint32(1);
  if (frame.length !== FRAME_HEADER_BYTES + length) return frame;
  const trailer = trailerParse(frame.subarray(FRAME_HEADER_BYTES));
  if (!isParseFailure(findTrailerError(trailer))) return frame;
  setTrailerStatus(trailer, relabelled);
  const data = trailerSerialize(trailer);
  const out = new Uint8Array(FRAME_HEADER_BYTES + data.length);
  out[0] = frame[0]!;
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, FRAME_HEADER_BYTES);
  return out;
}

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
