import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createStaticFile, type StaticFile } from "./static-file.js";
import { FAVICON_PATH } from "./favicon.js";
import { BASE_POLICY, PAGE_HEADERS } from "./page-security.js";

/** The reference's files, made once per process however many servers it runs: Scalar's bundle is 4 MB to read, hash and compress. */
let reference: Map<string, StaticFile> | undefined;

/** Where the reference's files are served. */
const DOCS_PATH = "/docs";

/**
 * `/docs`: the interactive API reference, Scalar's standalone bundle from
 * node_modules (no CDN), over `/openapi.json`. Its options keep everything on this
 * origin: no web fonts, no telemetry, no AI agent, no proxy; its requests may go only
 * here (connect-src 'self'), where "Try it" calls the API with a pasted token. Scalar
 * injects its styles at run time, hence style-src 'unsafe-inline' on this page alone.
 */
export function createApiReference(): Map<string, StaticFile> {
  return (reference ??= buildReference());
}

function buildReference(): Map<string, StaticFile> {
  const bundle = readFileSync(
    path.join(
      path.dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")),
      "browser",
      "standalone.js",
    ),
  );
  const options = {
    url: "/openapi.json",
    favicon: FAVICON_PATH,
    withDefaultFonts: false,
    telemetry: false,
    // Nothing that calls Scalar's hosted services (its proxy, registry and API) or
    // leaves for an editor: no AI agent, no MCP generation (with its VS Code and
    // Cursor buttons), no client app, no developer tools.
    agent: { disabled: true },
    mcp: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: "never",
    // Try-it sends a pasted token: the openId scheme stays in the document for tools
    // that sign in themselves, but from this page its flows cannot work (the dev
    // provider's client allows no browser origin), so it is not the default.
    authentication: { preferredSecurityScheme: "bearerToken" },
  };
  const init = `Scalar.createApiReference("#app", ${JSON.stringify(options)});\n`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Commercial Policy Benchmark API reference</title>
<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
</head>
<body>
<div id="app"></div>
<script src="${DOCS_PATH}/scalar.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;
  const policy = `${BASE_POLICY}; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:`;
  const script = "text/javascript; charset=utf-8";
  return new Map([
    [
      DOCS_PATH,
      createStaticFile(Buffer.from(html), {
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": policy, ...PAGE_HEADERS },
      }),
    ],
    [`${DOCS_PATH}/scalar.js`, createStaticFile(bundle, { contentType: script })],
    [`${DOCS_PATH}/init.js`, createStaticFile(Buffer.from(init), { contentType: script })],
  ]);
}
