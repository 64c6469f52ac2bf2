import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** About how many characters go to the file in one write. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Writes a header and then the lines of `rows` (each one CSV record, without its
 * line break) to `file`, and returns how many records were written. Rows are pulled
 * only as fast as the file takes them, so a generator of millions of rows runs in
 * flat memory.
 */
export async function writeCsvFile(file: string, header: readonly string[], rows: Iterable<string>): Promise<number> {
  let count = 0;
  function* chunks(): Generator<string> {
    let chunk = `${header.join(",")}\n`;
    for (const row of rows) {
      chunk += `${row}\n`;
      count++;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk.length > 0) yield chunk;
  }
  await pipeline(Readable.from(chunks()), createWriteStream(file, { encoding: "utf8" }));
  return count;
}
