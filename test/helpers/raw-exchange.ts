import http from "node:http";
import http2 from "node:http2";

/** An answer as the bytes came: no decompression, headers by lower-case name. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A request to send as it is, body in the pieces given (each a write, or a DATA frame). */
export interface RawRequest {
  method: string;
  /** Path and query. */
  target: string;
  headers: Record<string, string>;
  body?: readonly Buffer[];
  /** Declare the body's length (else HTTP/1.1 sends it chunked, HTTP/2 with no length). */
  contentLength?: boolean;
}

const ANSWER_TIMEOUT_MS = 10_000;

const bodyLength = (body: readonly Buffer[]) => body.reduce((sum, piece) => sum + piece.length, 0);

/** Sends over HTTP/1.1 on a keep-alive agent. */
export function http1Exchange(base: string, agent: http.Agent, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body && request.contentLength) headers["content-length"] = String(bodyLength(request.body));
    const req = http.request(new URL(request.target, base), { method: request.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: flatHeaders(res.headers), body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    for (const piece of request.body ?? []) req.write(piece);
    req.end();
  });
}

/** Sends as one stream of an HTTP/2 session (cleartext, prior knowledge). */
export function h2Exchange(session: http2.ClientHttp2Session, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: http2.OutgoingHttpHeaders = {
      ":method": request.method,
      ":path": request.target,
      ...request.headers,
    };
    if (request.body && request.contentLength) headers["content-length"] = String(bodyLength(request.body));
    const stream = session.request(headers, { endStream: !request.body });
    // A stream that never ends fails its test at once (the bug this pins hung for ever).
    stream.setTimeout(ANSWER_TIMEOUT_MS, () => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(new Error(`no answer over HTTP/2 within ${ANSWER_TIMEOUT_MS} ms: ${request.method} ${request.target}`));
    });
    const chunks: Buffer[] = [];
    let status = 0;
    let answerHeaders: Record<string, string> = {};
    stream.on("response", (received) => {
      status = Number(received[":status"]);
      answerHeaders = flatHeaders(
        Object.fromEntries(Object.entries(received).filter(([name]) => !name.startsWith(":"))),
      );
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve({ status, headers: answerHeaders, body: Buffer.concat(chunks) }));
    stream.on("error", reject);
    if (request.body) {
      for (const piece of request.body) stream.write(piece);
      stream.end();
    }
  });
}

function flatHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  return flat;
}
