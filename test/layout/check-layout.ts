/**
 * `npm run layout`: fails when an import of src/ runs upward, sideways or in a circle
 * (the rules are test/layout/rooms.ts). CI runs it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importGraph } from "./import-graph.js";
import { layoutProblems } from "./layout-check.js";

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const graph = importGraph(src);
const problems = layoutProblems(graph);
for (const problem of problems) console.error(problem);
console.error(
  problems.length === 0
    ? `layout: ${graph.size} files, no upward import, no circle`
    : `layout: ${problems.length} problems`,
);
process.exit(problems.length === 0 ? 0 : 1);
