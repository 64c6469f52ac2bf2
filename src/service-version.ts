import { readFileSync } from "node:fs";

/** The service's release (package.json's version): what /openapi.json's info.version names. */
export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
