import { promisify } from "node:util";
import zlib from "node:zlib";

export type ContentEncoding = "br" | "gzip";

/** Smaller answers go out as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The encoding to answer in for an Accept-Encoding header (RFC 9110 12.5.3): br or
 * gzip, whichever has the higher q (br on a tie, `*` standing for either), none when
 * neither is acceptable or the header is absent.
 */
export function chooseEncoding(header: string | undefined): ContentEncoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weightOf = (encoding: ContentEncoding) => weights.get(encoding) ?? weights.get("*") ?? 0;
  const [br, gzip] = [weightOf("br"), weightOf("gzip")];
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : undefined;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * From this size on, an answer is compressed at the fastest level: a 2.9 MB answer took
 * gzip 63 ms at its default level against 27 ms at level 1 (5% larger), and brotli 143 ms
 * at quality 4 against 21 ms at quality 1 (5% larger, still smaller than gzip's). Under
 * load those milliseconds are the cores' (bench:overload), and a larger answer's extra
 * bytes cost less than them on any link fast enough to want it.
 */
const LARGE_BYTES = 64 * 1024;

/**
 * An answer compressed, on the libuv thread pool so the event loop is not held while a
 * megabyte answer is compressed. Brotli at quality 4 below LARGE_BYTES: about gzip's
 * speed, a smaller answer (its default, 11, took seconds for a 3 MB answer). Whole, not
 * streamed, so the answer cache can keep it.
 */
export function compress(chunks: readonly Buffer[], encoding: ContentEncoding): Promise<Buffer> {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const large = bytes.length >= LARGE_BYTES;
  return encoding === "br"
    ? brotli(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: large ? 1 : 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzip(bytes, { level: large ? 1 : zlib.constants.Z_DEFAULT_COMPRESSION });
}
