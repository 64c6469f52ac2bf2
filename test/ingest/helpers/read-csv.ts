import { parse } from "csv-parse/sync";
import { readFile } from "node:fs/promises";
import path from "node:path";

/** A whole CSV file of a data set folder as records keyed by header. */
export async function readCsv(dir: string, file: string): Promise<Record<string, string>[]> {
  return parse(await readFile(path.join(dir, file)), { bom: true, columns: true }) as Record<string, string>[];
}
