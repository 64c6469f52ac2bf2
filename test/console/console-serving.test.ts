// The console's files (issue 16): /console redirects, index.html revalidated, hashed
// assets immutable and compressed, the console's policy on every answer (its connect-src
// with the provider's token endpoint and CONSOLE_CONNECT_SRC, only origins a policy can
// name, https but on loopback), config.json from the server's own settings, and a clear
// page when the bundle is not built.
import t from "tap";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { exportJWK, generateKeyPair } from "jose";
import { ConfigError } from "../../src/config-error.js";
import { readConfig } from "../../src/config.js";
import type { Logger } from "pino";
import { discoverProvider } from "../../src/auth/discovery.js";
import { consoleSettings, createConsoleSite } from "../../src/pages/console-site.js";
import { consolePolicy, isPolicyOrigin } from "../../src/pages/page-security.js";
import { createTestDatabase } from "../helpers/database.js";
import { startServeProcess } from "../helpers/serve-process.js";
import { startTestServer } from "../helpers/server.js";
import { rawGet } from "../helpers/raw-get.js";

const ISSUER = "https://sso.example.com/realms/brokers";
const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self' https://sso.example.com; form-action 'self' https://sso.example.com; base-uri 'none'; frame-ancestors 'none'";
const SETTINGS = consoleSettings({
  issuer: ISSUER,
  audience: "cpb-api",
  requiredScopes: ["benchmark:read"],
  clientId: "cpb-console",
  thinGroupPrograms: 5,
});
const INDEX = `<!doctype html><html><head><script type="module" crossorigin src="/console/assets/index-B7xk2Qd9.js"></script><link rel="stylesheet" href="/console/assets/index-Cq3v8ZpA.css"></head><body><div id="app"></div></body></html>`;
const SCRIPT = `export const figures = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ band: i, label: `band ${i}` })))};\n`;

/** A bundle as Vite writes it: index.html, hashed assets, the recorded source hash. */
async function fakeBundle(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "cpb-console-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(path.join(dir, "assets"));
  await writeFile(path.join(dir, "index.html"), INDEX);
  await writeFile(path.join(dir, "assets", "index-B7xk2Qd9.js"), SCRIPT);
  await writeFile(path.join(dir, "assets", "index-Cq3v8ZpA.css"), "body{margin:0}");
  await writeFile(path.join(dir, ".source-hash"), "abc\n");
  return dir;
}

t.test("the built console: redirect, revalidated index, immutable hashed assets, one strict policy", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex, {
    console: createConsoleSite({ distDir: await fakeBundle(t), settings: SETTINGS }),
  });

  const bare = await fetch(`${server.url}/console`, { redirect: "manual" });
  t.equal(bare.status, 308, "/console redirects");
  t.equal(bare.headers.get("location"), "/console/");
  t.equal(bare.headers.get("content-security-policy"), POLICY);
  const withQuery = await fetch(`${server.url}/console?code=x&state=y`, { redirect: "manual" });
  t.equal(withQuery.headers.get("location"), "/console/?code=x&state=y", "keeping the query");

  const index = await fetch(`${server.url}/console/`);
  t.equal(index.status, 200);
  t.match(index.headers.get("content-type"), /^text\/html/);
  t.equal(index.headers.get("cache-control"), "no-cache", "index.html is revalidated: it names the current assets");
  t.equal(index.headers.get("content-security-policy"), POLICY, "the exact policy");
  t.equal(index.headers.get("x-content-type-options"), "nosniff");
  t.equal(await index.text(), INDEX);
  const etag = index.headers.get("etag");
  t.ok(etag);
  t.equal((await fetch(`${server.url}/console/`, { headers: { "if-none-match": etag! } })).status, 304);
  const signedIn = await fetch(`${server.url}/console/?code=abc&state=def&iss=x`);
  t.equal(signedIn.status, 200, "the redirect URI, with the authorization response in its query");

  const script = await fetch(`${server.url}/console/assets/index-B7xk2Qd9.js`, {
    headers: { "accept-encoding": "identity" },
  });
  t.equal(script.status, 200);
  t.equal(script.headers.get("cache-control"), "public, max-age=31536000, immutable", "hashed names never change");
  t.match(script.headers.get("content-type"), /^text\/javascript/);
  t.equal(script.headers.get("content-security-policy"), POLICY);
  t.equal(await script.text(), SCRIPT);
  const zipped = await rawGet(`${server.url}/console/assets/index-B7xk2Qd9.js`, { "accept-encoding": "gzip" });
  t.equal(zipped.headers["content-encoding"], "gzip", "compressed like the other pages");
  t.equal(zipped.headers.vary, "Accept-Encoding");
  t.equal(gunzipSync(zipped.body).toString(), SCRIPT);
  const style = await fetch(`${server.url}/console/assets/index-Cq3v8ZpA.css`);
  t.match(style.headers.get("content-type"), /^text\/css/);
  t.equal(style.headers.get("cache-control"), "public, max-age=31536000, immutable");

  const head = await fetch(`${server.url}/console/`, { method: "HEAD" });
  t.equal(head.status, 200);
  t.equal(await head.text(), "");

  for (const missing of ["/console/.source-hash", "/console/assets/index-old.js", "/console/nothing"]) {
    const answer = await fetch(`${server.url}${missing}`);
    t.equal(answer.status, 404, `${missing}: not found`);
    t.equal(answer.headers.get("content-security-policy"), POLICY, `${missing}: the policy too`);
  }
  t.equal((await fetch(`${server.url}/console/`, { method: "POST" })).status, 404, "only GET and HEAD");

  const front = await (await fetch(`${server.url}/`)).text();
  t.match(front, 'href="/console/"', "the front page links the console");
});

t.test("/console/config.json: everything the app configures itself from, no token", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex, {
    console: createConsoleSite({ distDir: await fakeBundle(t), settings: SETTINGS }),
  });
  const answer = await fetch(`${server.url}/console/config.json`);
  t.equal(answer.status, 200);
  t.match(answer.headers.get("content-type"), /^application\/json/);
  t.equal(answer.headers.get("cache-control"), "no-cache");
  t.equal(answer.headers.get("content-security-policy"), POLICY);
  t.same(await answer.json(), {
    issuer: ISSUER,
    clientId: "cpb-console",
    resource: "cpb-api",
    scope: "openid benchmark:read",
    thinGroupPrograms: 5,
    apiBase: "/commercialpolicybenchmark/v2.0",
  });
  t.equal(
    consoleSettings({ issuer: ISSUER, audience: "a", requiredScopes: [], clientId: "c", thinGroupPrograms: 1 }).scope,
    "openid",
    "openid alone when the API requires no scope",
  );

  // Entra ID's v2 endpoint refuses `resource` (AADSTS901002) and names the API in the scope.
  const entra = readConfig(
    { CONSOLE_SCOPE: "openid  api://cpb-api/benchmark.read", CONSOLE_RESOURCE: "none" },
    { host: "0.0.0.0" },
  ).console;
  t.same(entra, {
    clientId: "cpb-console",
    thinGroupPrograms: 5,
    scope: "openid api://cpb-api/benchmark.read",
    resource: null,
    connectSrc: [],
  });
  t.match(consoleSettings({ issuer: ISSUER, audience: "cpb-api", requiredScopes: ["benchmark.read"], ...entra }), {
    scope: "openid api://cpb-api/benchmark.read",
    resource: null,
  });
  for (const none of ["None", "NONE", " none "]) {
    t.equal(
      readConfig({ CONSOLE_RESOURCE: none }, { host: "0.0.0.0" }).console.resource,
      null,
      `CONSOLE_RESOURCE="${none}": no resource, whatever the case`,
    );
  }
  t.equal(
    readConfig({ CONSOLE_RESOURCE: "api://none" }, { host: "0.0.0.0" }).console.resource,
    "api://none",
    "a resource that merely contains the word is kept",
  );
});

t.test(
  "connect-src: CONSOLE_CONNECT_SRC's origins, and the token endpoint's once the provider is discovered",
  async (t) => {
    const { knex } = await createTestDatabase(t);
    const site = createConsoleSite({
      distDir: await fakeBundle(t),
      settings: SETTINGS,
      connectSrc: ["https://proxy.example.com"],
    });
    const server = await startTestServer(t, knex, { console: site });
    const policyOf = async (file: string) =>
      (await fetch(`${server.url}${file}`)).headers.get("content-security-policy");
    t.match(
      await policyOf("/console/"),
      "; connect-src 'self' https://sso.example.com https://proxy.example.com; form-action 'self' https://sso.example.com;",
      "the operator's origin",
    );

    // Entra ID: the token endpoint is on login.microsoftonline.com, whatever the issuer's host.
    site.allowConnect(new URL("https://login.example.net/tenant/oauth2/v2.0/token"));
    site.allowConnect(new URL("https://sso.example.com/realms/brokers/protocol/openid-connect/token"));
    const connectSrc =
      "connect-src 'self' https://sso.example.com https://proxy.example.com https://login.example.net;";
    for (const file of ["/console/", "/console/config.json", "/console/assets/index-B7xk2Qd9.js", "/console/nothing"]) {
      t.match(await policyOf(file), connectSrc, `${file}: the token endpoint's origin added, once`);
    }
    t.match(
      await policyOf("/console/"),
      "form-action 'self' https://sso.example.com;",
      "forms still go to the issuer only",
    );

    const read = (value: string) => readConfig({ CONSOLE_CONNECT_SRC: value }, { host: "0.0.0.0" }).console.connectSrc;
    t.same(
      read("https://a.example.com, https://b.example.com:8443  http://127.0.0.1:9000"),
      ["https://a.example.com", "https://b.example.com:8443", "http://127.0.0.1:9000"],
      "space or comma separated",
    );
    t.same(
      read("http://localhost:3000 http://[::1]:8080"),
      ["http://localhost:3000", "http://[::1]:8080"],
      "plain http on a loopback host",
    );
    t.same(read(""), []);
    for (const bad of [
      "https://a.example.com/token",
      "*",
      "ftp://a.example.com",
      "a.example.com",
      "https://a.example.com;script-src",
      "https://a'unsafe-eval'.example.com",
      "https://*.example.com",
      "https://a_b.example.com",
    ]) {
      t.throws(
        () => read(bad),
        new ConfigError(
          `CONSOLE_CONNECT_SRC must list origins such as https://app.example.com (scheme, host and port only), not "${bad}"`,
        ),
        `"${bad}" refused`,
      );
    }
    for (const plain of ["http://api.example.com", "http://10.0.0.5:8080", "http://127.0.0.2"]) {
      t.throws(
        () => read(`https://a.example.com ${plain}`),
        new ConfigError(
          `CONSOLE_CONNECT_SRC must list https:// origins (plain http:// only on a loopback host), not "${plain}"`,
        ),
        `"${plain}": plain http elsewhere than loopback refused`,
      );
    }
  },
);

t.test("isPolicyOrigin: only scheme, host of letters, digits, hyphens and dots (or IPv6) and port", async (t) => {
  for (const good of [
    "https://sso.example.com",
    "https://login.example.net:8443",
    "http://127.0.0.1:9000",
    "https://[::1]:8443",
    "https://xn--bcher-kva.example",
  ]) {
    t.ok(isPolicyOrigin(good), good);
  }
  // The origins of URLs that parse: each would widen the policy, end its directive or add a keyword.
  for (const url of [
    "https://*/token",
    "https://*.example.com/token",
    "https://a;script-src.example.com/t",
    "https://a%3Bb.example.com/t",
    "https://a'unsafe-eval'.example.com/t",
    "https://a,b.example.com/t",
    "https://a_b.example.com/t",
  ]) {
    t.notOk(isPolicyOrigin(new URL(url).origin), `${url}: origin ${new URL(url).origin} refused`);
  }
  for (const bad of [
    "*",
    "https://sso.example.com/",
    "ftp://sso.example.com",
    "null",
    "https://sso.example.com 'unsafe-inline'",
    "https://a..b",
  ])
    t.notOk(isPolicyOrigin(bad), bad);
});

t.test(
  "allowConnect: a token endpoint a policy cannot name, or on plain http elsewhere than loopback, is left out with a warning",
  async (t) => {
    const { knex } = await createTestDatabase(t);
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => void warnings.push(args) } as unknown as Pick<Logger, "warn">;
    const site = createConsoleSite({ distDir: await fakeBundle(t), settings: SETTINGS, log });
    const server = await startTestServer(t, knex, { console: site });
    const policyOf = async () => (await fetch(`${server.url}/console/`)).headers.get("content-security-policy");
    const bad = [
      "https://*/token",
      "https://a;script-src.example.com/token",
      "https://a'unsafe-eval'.example.com/token",
      "http://login.example.net/token",
      "javascript:alert(1)",
    ];
    for (const url of bad) site.allowConnect(new URL(url));
    t.equal(await policyOf(), POLICY, "the policy as it was");
    t.same(
      warnings.map((args) => (args as [{ url: string }])[0].url),
      bad.map((url) => new URL(url).href),
      "a warning naming each",
    );
    site.allowConnect(new URL("http://127.0.0.1:9/token"));
    t.match(
      await policyOf(),
      "; connect-src 'self' https://sso.example.com http://127.0.0.1:9;",
      "a loopback http one is allowed (a local provider)",
    );
    t.equal(warnings.length, bad.length);
  },
);

t.test("the issuer's origin must be one a policy can name: the site is not created otherwise", async (t) => {
  for (const issuer of ["https://*/realms/brokers", "https://a'unsafe-eval'.example.com", "https://a;b.example.com"]) {
    const settings = consoleSettings({
      issuer,
      audience: "cpb-api",
      requiredScopes: [],
      clientId: "cpb-console",
      thinGroupPrograms: 5,
    });
    t.throws(
      () => createConsoleSite({ distDir: path.join(tmpdir(), "cpb-console-never-built"), settings }),
      {
        message: `AUTH_ISSUER's origin ${new URL(issuer).origin} cannot be named in the console's Content-Security-Policy`,
      },
      issuer,
    );
  }
  t.throws(
    () => consolePolicy(ISSUER, ["https://*"]),
    { message: "https://* cannot be named in the console's Content-Security-Policy" },
    "nor any other origin",
  );
});

t.test("discovery: the token endpoint must be https, or http on a loopback host", async (t) => {
  let tokenEndpoint = "";
  const server = http.createServer((req, res) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, token_endpoint: tokenEndpoint }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const good of [
    "https://login.example.net/tenant/oauth2/v2.0/token",
    `${issuer}/token`,
    "http://localhost:9/token",
  ]) {
    tokenEndpoint = good;
    t.equal((await discoverProvider(issuer)).tokenEndpoint?.href, good, good);
  }
  for (const bad of ["http://login.example.net/token", "ftp://login.example.net/token", "javascript:alert(1)"]) {
    tokenEndpoint = bad;
    await t.rejects(discoverProvider(issuer), { message: `token_endpoint ${new URL(bad).href} must be https` }, bad);
  }
});

t.test("not built: /console/ says how to build it (never a 500), the front page links nothing", async (t) => {
  const { knex } = await createTestDatabase(t);
  const distDir = path.join(tmpdir(), "cpb-console-never-built");
  const server = await startTestServer(t, knex, { console: createConsoleSite({ distDir, settings: SETTINGS }) });
  t.equal((await fetch(`${server.url}/console`, { redirect: "manual" })).status, 308);
  const page = await fetch(`${server.url}/console/`);
  t.equal(page.status, 404);
  t.match(page.headers.get("content-type"), /^text\/html/);
  t.equal(page.headers.get("content-security-policy"), POLICY);
  t.match(await page.text(), /The console is not built[\s\S]*npm run build:console/);
  t.equal((await fetch(`${server.url}/console/config.json`)).status, 200, "its settings are still served");
  t.notMatch(await (await fetch(`${server.url}/`)).text(), "/console/");
});

t.test("without a console (tests, embedders): /console is the API's 404", async (t) => {
  const { knex } = await createTestDatabase(t);
  const server = await startTestServer(t, knex);
  const answer = await fetch(`${server.url}/console/`);
  t.equal(answer.status, 404);
  t.equal(answer.headers.get("content-security-policy"), null);
});

const cpb = fileURLToPath(new URL("../../bin/cpb.js", import.meta.url));

/**
 * An OpenID provider as far as `cpb serve` reads it (a discovery document and a JWKS)
 * whose token endpoint is on another origin than its issuer, as Entra ID's or a proxied
 * Keycloak's may be: `localhost` is another origin than `127.0.0.1`.
 */
async function providerWithTokenEndpointElsewhere(t: {
  teardown(fn: () => unknown): void;
}): Promise<{ issuer: string; tokenOrigin: string }> {
  const { publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" }] });
  const server = http.createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    const issuer = `http://127.0.0.1:${port}`;
    const body =
      req.url === "/jwks"
        ? jwks
        : JSON.stringify({
            issuer,
            jwks_uri: `${issuer}/jwks`,
            token_endpoint: `http://localhost:${port}/oauth2/token`,
            authorization_endpoint: `${issuer}/authorize`,
          });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const port = (server.address() as AddressInfo).port;
  return { issuer: `http://127.0.0.1:${port}`, tokenOrigin: `http://localhost:${port}` };
}

t.test(
  "cpb serve: the console's policy allows the token endpoint of the discovery document and CONSOLE_CONNECT_SRC",
  async (t) => {
    const { url } = await createTestDatabase(t);
    const { issuer, tokenOrigin } = await providerWithTokenEndpointElsewhere(t);
    const serve = await startServeProcess(t, url, {
      AUTH_ISSUER: issuer,
      AUTH_AUDIENCE: "cpb-api",
      CONSOLE_CONNECT_SRC: "https://extra.example.com",
    });
    const policy = (await fetch(`${serve.base}/console/config.json`)).headers.get("content-security-policy");
    t.match(
      policy,
      `; connect-src 'self' ${issuer} https://extra.example.com ${tokenOrigin};`,
      "ready: the token endpoint's origin is in the policy",
    );
  },
);

t.test(
  "cpb serve: config.json from the environment; a bad CONSOLE_THIN_GROUP_PROGRAMS exits 2 naming it",
  async (t) => {
    const { url } = await createTestDatabase(t);
    const serve = await startServeProcess(t, url, {
      CONSOLE_CLIENT_ID: "broker-console",
      CONSOLE_THIN_GROUP_PROGRAMS: "12",
      AUTH_REQUIRED_SCOPES: "benchmark:read benchmark:export",
    });
    const config = (await (await fetch(`${serve.base}/console/config.json`)).json()) as Record<string, unknown>;
    t.match(config, {
      clientId: "broker-console",
      resource: "api://commercialpolicybenchmark",
      scope: "openid benchmark:read benchmark:export",
      thinGroupPrograms: 12,
      apiBase: "/commercialpolicybenchmark/v2.0",
    });
    t.match(String(config.issuer), /^http:\/\/127\.0\.0\.1:\d+$/, "AUTH_ISSUER");
    const consolePage = await fetch(`${serve.base}/console/`);
    t.not(consolePage.status, 500, "built or not, never a 500");
    t.match(
      consolePage.headers.get("content-security-policy"),
      new RegExp(`connect-src 'self' ${config.issuer as string};`),
    );

    const run = promisify(execFile);
    const serveWith = (env: Record<string, string>) =>
      // Killed if it serves instead of exiting (a setting let through), rather than outliving the test.
      run(process.execPath, [cpb, "serve"], {
        timeout: 60_000,
        env: {
          ...process.env,
          DATABASE_URL: url,
          AUTH_ISSUER: "https://sso.example.com",
          AUTH_AUDIENCE: "cpb-api",
          ...env,
        },
      }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
    for (const bad of ["0", "-3", "many", "2.5"]) {
      const failed = await serveWith({ CONSOLE_THIN_GROUP_PROGRAMS: bad });
      t.equal(failed.code, 2, `"${bad}": exit 2`);
      t.match(failed.stderr, `CONSOLE_THIN_GROUP_PROGRAMS must be a whole number from 1 to 10000, not "${bad}"`);
    }
    const badOrigin = await serveWith({ CONSOLE_CONNECT_SRC: "https://ok.example.com https://sso.example.com/token" });
    t.equal(badOrigin.code, 2, "a bad CONSOLE_CONNECT_SRC: exit 2");
    t.match(
      badOrigin.stderr,
      `CONSOLE_CONNECT_SRC must list origins such as https://app.example.com (scheme, host and port only), not "https://sso.example.com/token"`,
    );
    const plainOrigin = await serveWith({ CONSOLE_CONNECT_SRC: "https://ok.example.com http://api.example.com" });
    t.equal(plainOrigin.code, 2, "a plain http CONSOLE_CONNECT_SRC elsewhere than loopback: exit 2");
    t.match(
      plainOrigin.stderr,
      `CONSOLE_CONNECT_SRC must list https:// origins (plain http:// only on a loopback host), not "http://api.example.com"`,
    );
  },
);
