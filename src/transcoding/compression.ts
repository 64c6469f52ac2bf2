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

/**
 * From this size on, an answer is compressed at the fastest level: a 2.9 MB answer took
 * gzip 63 ms at its default level against 27 ms at level 1 (5% larger), and brotli 143 ms
 * at quality 4 against 21 ms at quality 1 (5% larger, still smaller than gzip's). Under
 * load those milliseconds are the cores' (bench:overload), and a larger answer's extra
 * bytes cost less than them on any link fast enough to want it.
 */
const LARGE_BYTES = 64 * 1024;

/** Output pieces this large, and input fed in batches this large. */
const PIECE = 64 * 1024;

/**
 * An answer compressed, on the libuv thread pool so the event loop is not held while a
 * megabyte answer is compressed. Brotli at quality 4 below LARGE_BYTES: about gzip's
 * speed, a smaller answer (its default, 11, took seconds for a 3 MB answer). Whole, not
 * sent as it is made, so the answer cache can keep it; but returned in pieces, and a
 * large answer fed in batches through two reused buffers (feed). Joining a 2.9 MB
 * answer before compressing it, and its output after, was half the memory a
 * limit-adequacy answer took, and those megabytes set the pace of the collector's full
 * collections: one every 90 ms under bench:overload, 4 ms each.
 */
export function compress(chunks: readonly Uint8Array[], encoding: ContentEncoding): Promise<Buffer[]> {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  if (length < LARGE_BYTES) return compressNow(chunks, encoding, length);
  const turn = largeInTurn.then(() => compressNow(chunks, encoding, length));
  largeInTurn = turn.catch(() => undefined);
  return turn;
}

/**
 * Large answers are compressed one at a time. Each takes a thread of the pool for
 * some 15 ms; four at once (the pool's size) took both cores of a 2-core machine from
 * the event loop and PostgreSQL, and refusals and /healthz waited behind them (p99
 * up to 142 ms under bench:overload's broadest limit adequacy, against 42-86 ms with
 * one at a time, for some 10% fewer answers a second: 38-39 against 42-45).
 */
let largeInTurn: Promise<unknown> = Promise.resolve();

function compressNow(chunks: readonly Uint8Array[], encoding: ContentEncoding, length: number): Promise<Buffer[]> {
  const large = length >= LARGE_BYTES;
  const stream =
    encoding === "br"
      ? zlib.createBrotliCompress({
          chunkSize: PIECE,
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: large ? 1 : 4,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length,
          },
        })
      : zlib.createGzip({ chunkSize: PIECE, level: large ? 1 : zlib.constants.Z_DEFAULT_COMPRESSION });
  return new Promise((resolve, reject) => {
    const output: Buffer[] = [];
    stream.on("data", (piece: Buffer) => output.push(piece));
    stream.once("end", () => resolve(output));
    stream.once("error", reject);
    if (length <= PIECE) stream.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    else feed(stream, chunks).catch((error: unknown) => stream.destroy(error as Error));
  });
}

/**
 * Writes the chunks to a compressing stream in batches of PIECE bytes. A rendered list
 * of cases is hundreds of pieces of 4-16 KiB (loss-figures.ts): written one by one,
 * each would be a turn of the thread pool and of the event loop (2.8 times as long for
 * 4 KiB pieces), so they are copied into two buffers in turn, and a buffer is filled
 * again once the stream has consumed what it held (its write's callback).
 */
async function feed(stream: zlib.Gzip | zlib.BrotliCompress, chunks: readonly Uint8Array[]): Promise<void> {
  const buffers = [Buffer.allocUnsafe(PIECE), Buffer.allocUnsafe(PIECE)] as const;
  const consumed: [Promise<void>, Promise<void>] = [Promise.resolve(), Promise.resolve()];
  let current: 0 | 1 = 0;
  let filled = 0;
  const send = () => {
    const batch = buffers[current].subarray(0, filled);
    consumed[current] = new Promise((resolve, reject) =>
      stream.write(batch, (error) => (error ? reject(error) : resolve())),
    );
    consumed[current].catch(() => undefined); // the stream's own error event reports it
    current = current === 0 ? 1 : 0;
    filled = 0;
  };
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length;) {
      if (filled === 0) await consumed[current];
      const n = Math.min(PIECE - filled, chunk.length - at);
      buffers[current].set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === PIECE) send();
    }
  }
  if (filled > 0) send();
  stream.end();
}
