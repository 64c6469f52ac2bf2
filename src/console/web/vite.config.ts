import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// Paths resolve against this file, not the caller's working directory: the server
// builds with `build({ configFile: "src/console/web/vite.config.ts" })` from the repo root.
const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export default defineConfig({
  root: here("."),
  // Served under /console/ by the API server (hashed assets, long cache lifetimes).
  base: "/console/",
  // Nothing to copy verbatim: config.json comes from the server at run time.
  publicDir: false,
  // Preact's automatic JSX runtime through Oxc (Vite 8's transformer; no Babel preset).
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: here("../../../dist/console"),
    emptyOutDir: true,
    // The CSP allows no inline script or style: never inline assets as data: scripts.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: "es2022",
    // ECharts' own chunk (core, bar, boxplot, scatter, canvas) is ~545 kB minified; it loads
    // lazily after sign-in, so it is allowed here rather than warned about on every build.
    chunkSizeWarningLimit: 600,
  },
});
