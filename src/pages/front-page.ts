import { createStaticFile, type StaticFile } from "./static-file.js";
import { BASE_POLICY, cspHash, PAGE_HEADERS } from "./page-security.js";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.6rem;margin-bottom:.25rem}p.lead{color:#57606a;margin-top:0}
ul{padding-left:1.2rem}li{margin:.4rem 0}a{color:#0a58ca}code{background:#f3f4f6;padding:0 .25rem;border-radius:3px}`;

/**
 * `/`: what the service is, and where to go next. Static and token-free: it says
 * nothing about the data, only how to reach it.
 */
export function createFrontPage(links: { console?: string }): StaticFile {
  const consoleLink = links.console
    ? `\n<li><a href="${links.console}">Benchmark console</a>: build a peer group and see its figures</li>`
    : "";
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Commercial Policy Benchmark</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Commercial Policy Benchmark</h1>
<p class="lead">How a company's insurance program compares with its peers' (API v2.0).</p>
<p>Name a peer group (NAICS codes, a coverage and lines of business, an exposure range, organization types)
and the service answers with the peers' limit, premium and retention distributions, rate-per-million
statistics, program and loss counts, and limit adequacy against real loss cases. Every call needs an
OpenID Connect access token.</p>
<ul>${consoleLink}
<li><a href="/docs">API reference</a>: every operation, with "Try it" (paste a token)</li>
<li><a href="/openapi.json">OpenAPI 3.1 document</a>: for client generators, gateways and Postman</li>
<li>gRPC, gRPC-Web and Connect on this port, with server reflection (<code>buf curl --list-services</code>)</li>
<li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a>: health and readiness</li>
</ul>
</main>
</body>
</html>
`;
  return createStaticFile(Buffer.from(html), {
    contentType: "text/html; charset=utf-8",
    headers: { "content-security-policy": `${BASE_POLICY}; style-src ${cspHash(STYLE)}`, ...PAGE_HEADERS },
  });
}
