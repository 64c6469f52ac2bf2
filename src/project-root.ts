import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The checkout's root: the nearest folder above this module with a package.json. The
 * sources and their compilation (dist/server, bin/compiled.js) sit at different depths
 * below it, so paths from the root never depend on which of the two runs, nor on the
 * working folder.
 */
export const PROJECT_ROOT: string = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
