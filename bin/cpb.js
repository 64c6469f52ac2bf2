#!/usr/bin/env node
// The `cpb` command. It runs the compiled JavaScript (dist/server, bin/compiled.js) when
// that is the compilation of the sources as they are: `npm ci` and `npm start` compile,
// and so does `npm run build`. Otherwise, as while the sources are being edited, it
// runs the TypeScript sources through tsx's loader, so it never runs stale code.
import { pathToFileURL } from "node:url";
import { COMPILED_MAIN, compiledIsCurrent } from "./compiled.js";

if (compiledIsCurrent()) {
  await import(pathToFileURL(COMPILED_MAIN).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
