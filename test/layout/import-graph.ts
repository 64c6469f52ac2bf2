import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Every TypeScript file under `root` (relative paths) and the files of `root` each imports. */
export function importGraph(root: string): Map<string, string[]> {
  const files = listSources(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    // preProcessFile sees import, import type, export ... from and import(): every edge.
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    const targets = specifiers
      .filter((s) => s.startsWith("."))
      .map((s) => resolveSource(path.posix.join(path.posix.dirname(file), s), known))
      .filter((t): t is string => t !== undefined);
    graph.set(file, targets);
  }
  return graph;
}

function listSources(root: string, dir = ""): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : listSources(root, relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

// ESM imports name the emitted file (`./x.js`); the source is `x.ts` or `x.tsx`.
function resolveSource(target: string, known: Set<string>): string | undefined {
  const stem = target.replace(/\.(js|jsx|ts|tsx)$/, "");
  return [`${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`].find((candidate) => known.has(candidate));
}
