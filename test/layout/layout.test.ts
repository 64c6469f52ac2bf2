import path from "node:path";
import { fileURLToPath } from "node:url";
import tap from "tap";
import { importGraph } from "./import-graph.js";
import { importCircles, layoutProblems } from "./layout-check.js";

const rules = {
  layers: [["log.ts"], ["benchmark", "search"], ["store"], ["server"]],
  islands: { "console/web": ["console/settings.ts"] },
};
const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

tap.test("src/ has no upward import and no import circle", async (t) => {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
  const graph = importGraph(src);
  t.ok(graph.size > 100, "the graph holds the whole tree");
  t.ok(
    graph.get("server/create-app.ts")?.includes("load-control/admission-gate.ts"),
    "imports are resolved from .js names to sources",
  );
  t.same(layoutProblems(graph), []);
});

tap.test("downward and in-room imports pass", async (t) => {
  const graph = graphOf({
    "store/a.ts": ["benchmark/b.ts", "store/c.ts", "log.ts"],
    "store/c.ts": [],
    "benchmark/b.ts": ["log.ts"],
    "log.ts": [],
  });
  t.same(layoutProblems(graph, rules), []);
});

tap.test("an import upward or sideways is named with its rooms", async (t) => {
  const graph = graphOf({
    "store/a.ts": ["server/s.ts"],
    "benchmark/b.ts": ["search/q.ts"],
    "server/s.ts": [],
    "search/q.ts": [],
  });
  t.same(layoutProblems(graph, rules), [
    "store/a.ts imports server/s.ts: store may not import from server (above it)",
    "benchmark/b.ts imports search/q.ts: benchmark may not import from search (beside it)",
  ]);
});

tap.test("a file in no room, and an island reaching out or reached into", async (t) => {
  const graph = graphOf({
    "pages/p.ts": [],
    "console/web/app.ts": ["console/settings.ts", "console/web/x.ts", "store/a.ts"],
    "console/web/x.ts": [],
    "console/settings.ts": [],
    "store/a.ts": [],
    "server/s.ts": ["console/web/x.ts"],
  });
  t.same(layoutProblems(graph, { ...rules, layers: [...rules.layers, ["console"]] }), [
    'pages/p.ts is in no room: add "pages" to a layer of test/layout/rooms.ts',
    "console/web/app.ts imports store/a.ts: console/web may import only console/settings.ts",
    "server/s.ts imports console/web/x.ts: nothing outside it imports from console/web",
  ]);
});

tap.test("every import circle is found once, with its files in order", async (t) => {
  const graph = graphOf({ "a.ts": ["b.ts"], "b.ts": ["c.ts"], "c.ts": ["a.ts"], "d.ts": ["d.ts"], "e.ts": ["a.ts"] });
  t.same(importCircles(graph), [["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
});
