import type { NodeRequest } from "./node-types.js";

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

/**
 * The request ended before its body did: its caller went away (Node's "aborted",
 * ECONNRESET) or its stream broke. Nobody is left to answer, and it is no fault of
 * the server's.
 */
export class BodyNotReceivedError extends Error {
  constructor(cause?: Error) {
    super("the request ended before its body arrived", { cause });
  }
}

/**
 * Reads a request body as UTF-8 text, refusing it as soon as it passes the limit.
 * Read as it is buffered ('readable') and done once the message is complete, without
 * waiting for 'end': a small body arrives with its headers, and this is on the path of
 * every repeated POST (the flowing mode of 'data' and 'end' cost it several ticks).
 * An HTTP/2 request is complete only once 'end' was emitted (Http2ServerRequest's
 * `complete` is its `readableEnded`), so 'end' finishes the read too: without it a
 * POST over h2c never got an answer.
 */
export function readRequestBody(req: NodeRequest, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("readable", onReadable);
      req.off("end", finish);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const finish = () => {
      stop(); // read to its end: the stream ends by itself
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error?: Error) => {
      stop();
      reject(new BodyNotReceivedError(error));
    };
    const onClose = () => onError();
    const onReadable = () => {
      for (let chunk: Buffer | null; (chunk = req.read() as Buffer | null) !== null;) {
        size += chunk.length;
        if (size > maxBytes) {
          stop();
          req.resume(); // dropped as it comes, until the answer closes the connection
          return reject(new BodyTooLargeError(maxBytes));
        }
        chunks.push(chunk);
      }
      if (req.complete) finish();
    };
    req.on("readable", onReadable);
    req.on("end", finish);
    req.on("error", onError);
    req.on("close", onClose);
  });
}
