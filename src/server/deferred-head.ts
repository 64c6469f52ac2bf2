import type { Http2ServerResponse } from "node:http2";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";

/**
 * Over HTTP/2, Node's compatibility API sends a response's HEADERS frame at
 * `writeHead()`, and a bare `end()` after it an empty DATA frame that ends the stream:
 * two frames. A gRPC "trailers-only" answer must be one HEADERS frame that ends the
 * stream, or gRPC clients take it for a committed call (trailers-only.ts). Headers set
 * with `setHeader()` and sent by `end()` are that one frame, so for gRPC requests
 * over HTTP/2 `writeHead()` only sets the status and the headers; the first write or
 * the end sends them, with the same bytes as before.
 */
export function deferHeadOfGrpcAnswers(req: NodeRequest, res: NodeResponse): void {
  if (req.httpVersionMajor !== 2 || !String(req.headers["content-type"] ?? "").startsWith("application/grpc")) return;
  const response = res as Http2ServerResponse;
  const writeHead = response.writeHead;
  response.writeHead = function deferredWriteHead(status: number, ...rest: unknown[]) {
    // Node's own write() and end() call writeHead(status) to send the head: let them.
    if (rest.length === 0) return (writeHead as (status: number) => Http2ServerResponse).call(response, status);
    const headers = rest.at(-1);
    response.statusCode = status;
    if (headers && typeof headers === "object")
      for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>))
        if (value !== undefined) response.setHeader(name, value);
    return response;
  } as Http2ServerResponse["writeHead"];
}
