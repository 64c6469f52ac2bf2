import { Code } from "@connectrpc/connect";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import { isLoopbackHttp } from "../auth/loopback.js";
import { problem, writeProblem } from "../transcoding/problem-document.js";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import { createStaticFile, type StaticFile } from "./static-file.js";
import { consolePolicy, isPolicyOrigin, PAGE_HEADERS } from "./page-security.js";
import type { ConsoleSettings } from "../console/console-settings.js";

/** Where the console is served. */
export const CONSOLE_PATH = "/console";

export type { ConsoleSettings };

export interface ConsoleSite {
  /** Whether a built bundle was found: the front page links the console only then. */
  readonly built: boolean;
  /** Answers a GET or HEAD of `/console` or under `/console/`. */
  serve(req: NodeRequest, res: NodeResponse, path: string): Promise<void>;
  /**
   * Lets the app call the origin of `url` from now on (connect-src): the provider's token
   * endpoint, known once its discovery document is read (the authenticator reads it at
   * start-up, before /readyz turns 200). An origin that is not https (but a loopback
   * http one) or that a policy cannot name (isPolicyOrigin) is left out, with a warning:
   * the document comes from the network, and an origin `https://*` would allow any host.
   */
  allowConnect(url: URL): void;
}

/** The spec's REST base path, on this origin. */
const API_BASE = "/commercialpolicybenchmark/v2.0";

/**
 * The settings from the server's own: the app asks for tokens exactly like those the
 * API verifies (this issuer, this audience as the resource, the required scopes).
 */
export function consoleSettings(options: {
  issuer: string;
  audience: string;
  requiredScopes: readonly string[];
  clientId: string;
  thinGroupPrograms: number;
  /** CONSOLE_SCOPE, CONSOLE_RESOURCE: for providers whose scope names differ from the token's (Entra ID). */
  scope?: string;
  resource?: string | null;
}): ConsoleSettings {
  return {
    issuer: options.issuer,
    clientId: options.clientId,
    resource: options.resource === undefined ? options.audience : options.resource,
    scope: options.scope ?? ["openid", ...options.requiredScopes.filter((scope) => scope !== "openid")].join(" "),
    thinGroupPrograms: options.thinGroupPrograms,
    apiBase: API_BASE,
  };
}

/** Hashed names (Vite's `assets/name-HASH.js`): a new build makes new names, so a browser may keep them for good. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/**
 * The broker's console: the Vite bundle of `src/console/web` (built to `dist/console`),
 * read once at start-up like the other pages. `/console` redirects to `/console/`, the
 * app's index.html is revalidated by ETag, its hashed assets are immutable, and every
 * answer carries the console's policy. No file needs a token: the app signs in at the
 * identity provider and sends the token with its API calls. Without a bundle, `/console/`
 * says how to build one.
 */
export function createConsoleSite({
  distDir,
  settings,
  connectSrc = [],
  log,
}: {
  distDir: string;
  settings: ConsoleSettings;
  /** CONSOLE_CONNECT_SRC: more origins the app may call (connect-src), set by the operator. */
  connectSrc?: readonly string[];
  /** Where an origin left out of the policy is told; a process warning (stderr) without it. */
  log?: Pick<Logger, "warn">;
}): ConsoleSite {
  const connectOrigins = new Set(connectSrc);
  let policy = consolePolicy(settings.issuer, [...connectOrigins]);
  const files = new Map<string, StaticFile>();
  const built = existsSync(path.join(distDir, "index.html"));
  if (built) {
    for (const file of listFiles(distDir)) {
      const relative = path.relative(distDir, file).split(path.sep).join("/");
      const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
      const cacheControl = relative.startsWith("assets/") ? IMMUTABLE : "no-cache";
      const served = createStaticFile(readFileSync(file), { contentType, cacheControl });
      files.set(relative === "index.html" ? `${CONSOLE_PATH}/` : `${CONSOLE_PATH}/${relative}`, served);
    }
  }
  files.set(
    `${CONSOLE_PATH}/config.json`,
    createStaticFile(Buffer.from(JSON.stringify(settings)), { contentType: "application/json" }),
  );

  return {
    built,
    allowConnect(url) {
      if ((url.protocol !== "https:" && !isLoopbackHttp(url)) || !isPolicyOrigin(url.origin)) {
        const message =
          "the console's policy leaves out an origin the app was to call: not https, or not one a Content-Security-Policy can name";
        if (log) log.warn({ url: url.href }, message);
        else process.emitWarning(`${message}: ${url.href}`);
        return;
      }
      connectOrigins.add(url.origin);
      policy = consolePolicy(settings.issuer, [...connectOrigins]);
    },
    async serve(req, res, requestPath) {
      // Set per answer, not kept with each file: the policy grows when the provider is discovered.
      res.setHeader("content-security-policy", policy);
      for (const [name, value] of Object.entries(PAGE_HEADERS)) res.setHeader(name, value);
      if (requestPath === CONSOLE_PATH) {
        // Relative URLs of the app (and its redirect URI) are under /console/.
        const query = req.url?.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
        res.writeHead(308, { location: `${CONSOLE_PATH}/${query}`, "content-length": 0 });
        return void res.end();
      }
      const file = files.get(requestPath);
      if (file) return file.serve(req, res);
      if (!built && requestPath === `${CONSOLE_PATH}/`) return notBuilt(res, req.method === "HEAD");
      writeProblem(res, problem(404, Code.NotFound, `no such file of the console: ${requestPath}`));
    },
  };
}

/** The answer while dist/console is missing: how to build it, never a 500 (plain HTML: the console's policy allows no inline style). */
function notBuilt(res: NodeResponse, head: boolean): void {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>The console is not built</title></head>
<body>
<h1>The console is not built</h1>
<p>This server serves the broker's console from <code>dist/console</code>, which is missing.
Build it in the checkout with <code>npm run build:console</code> (<code>npm start</code> and
<code>npm test</code> build it when it is missing or out of date), then restart the server.</p>
<p>The API is served as usual: see the <a href="/">front page</a>.</p>
</body>
</html>
`;
  const body = Buffer.from(html);
  res.writeHead(404, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    "content-length": body.length,
  });
  if (head) res.end();
  else res.end(body);
}

/** Every file under dir but dotfiles (the bundle's source hash). */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : entry.isFile() ? [full] : [];
  });
}
