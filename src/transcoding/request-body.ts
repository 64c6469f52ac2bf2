import type { Readable } from "node:stream";

export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`the request body is larger than ${limit} bytes`);
  }
}

/**
 * Reads a request body as UTF-8 text, refusing it as soon as it passes the limit.
 * Listeners rather than an async iterator: a small body arrives with its headers, and
 * this is on the path of every repeated POST.
 */
export function readRequestBody(req: Readable, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off("data", onData);
      req.off("end", onEnd);
      req.resume(); // dropped as it comes, until the answer closes the connection
      reject(new BodyTooLargeError(maxBytes));
    };
    const onEnd = () => {
      req.off("error", reject);
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", reject);
  });
}
