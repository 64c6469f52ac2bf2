import { Transform, type TransformCallback } from "node:stream";

/** Bytes that are not UTF-8; `line` is where the first bad byte is. */
export class InvalidUtf8Error extends Error {
  constructor(readonly line: number) {
    super("not valid UTF-8");
  }
}

/**
 * Decodes a byte stream as UTF-8, strictly (DATA-FORMAT.md: files are UTF-8): a
 * byte sequence that is not UTF-8 stops the stream with the line it is on, rather
 * than turning into U+FFFD in the data. The bytes start at physical line `firstLine`.
 */
export function createUtf8Decoder(firstLine = 1): Transform {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let lines = firstLine;
  const decode = (bytes: Uint8Array | undefined, stream: boolean): string => {
    try {
      const text = bytes ? decoder.decode(bytes, { stream }) : decoder.decode();
      for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
      return text;
    } catch {
      const prefix = new TextDecoder("utf-8").decode(bytes ?? new Uint8Array()).split("\uFFFD")[0] ?? "";
      throw new InvalidUtf8Error(lines + prefix.split("\n").length - 1);
    }
  };
  return new Transform({
    readableObjectMode: false,
    decodeStrings: true,
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      try {
        callback(null, decode(chunk, true));
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        const rest = decode(undefined, false);
        callback(null, rest === "" ? undefined : rest);
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}
