import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./project-root.js";

/** The service's release (package.json's version): what /openapi.json's info.version names. */
export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }
).version;
