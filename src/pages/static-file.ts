import { createHash } from "node:crypto";
import { chooseEncoding, compress, COMPRESS_MIN_BYTES, type ContentEncoding } from "../transcoding/compression.js";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { ifNoneMatchHits } from "../load-control/answer-cache.js";

/**
 * A file the server answers as it is, without a token: a page, a script, a generated
 * document. It is known at start-up, so its ETag is its content's hash (a 304 to a
 * browser that has it) and each encoding is compressed once, when first asked for,
 * and kept: the API reference's script is 4 MB as it is, 1 MB as brotli.
 */
export interface StaticFile {
  serve(req: NodeRequest, res: NodeResponse): Promise<void>;
}

interface StaticFileOptions {
  contentType: string;
  /** Cache-Control: revalidate by ETag unless the caller says otherwise. */
  cacheControl?: string;
  /** Extra headers: a Content-Security-Policy for pages. */
  headers?: Record<string, string>;
}

export function createStaticFile(bytes: Buffer, options: StaticFileOptions): StaticFile {
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  const encoded = new Map<ContentEncoding, Promise<Buffer>>();
  const headers = {
    "content-type": options.contentType,
    "cache-control": options.cacheControl ?? "no-cache",
    etag,
    vary: "Accept-Encoding",
    ...options.headers,
  };
  return {
    async serve(req, res) {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (ifNoneMatchHits(req.headers["if-none-match"], etag)) {
        res.statusCode = 304;
        return void res.end();
      }
      const encoding = bytes.length >= COMPRESS_MIN_BYTES ? chooseEncoding(req.headers["accept-encoding"]) : undefined;
      let body = bytes;
      if (encoding) {
        let pending = encoded.get(encoding);
        if (!pending)
          encoded.set(encoding, (pending = compress([bytes], encoding).then((pieces) => Buffer.concat(pieces))));
        body = await pending;
        res.setHeader("content-encoding", encoding);
      }
      res.setHeader("content-length", body.length);
      res.statusCode = 200;
      if (req.method === "HEAD") return void res.end();
      res.end(body);
    },
  };
}
