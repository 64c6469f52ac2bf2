/**
 * `npm run build:console`: builds the console's bundle (dist/console) when it is missing
 * or was built from other sources; says so when it is up to date.
 */
import { consolePaths, ensureConsoleBuilt } from "./console-build.js";

const paths = consolePaths();
const result = await ensureConsoleBuilt(paths, { report: (line) => console.error(line) });
const said = {
  "no-sources": `no console sources at ${paths.sourceDir}: nothing to build`,
  fresh: `${paths.outDir} is up to date`,
  built: `built ${paths.outDir}`,
};
console.error(said[result]);
