import t from "tap";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from "jose";
import { pino } from "pino";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { createJwtAuthenticator, type JwtAuthenticatorOptions } from "../../src/auth/jwt-authenticator.js";
import { createDevIdentityProvider } from "../../src/dev/identity-provider.js";
import { freePort } from "../../src/dev/free-port.js";
import { createTestDatabase } from "../helpers/database.js";
import { callWithGrpcJs } from "../helpers/grpc-js-client.js";
import { startIdentityProvider } from "../helpers/identity-provider.js";
import { startTestServer } from "../helpers/server.js";
import { insertLookupFixture } from "../fixtures/lookup-fixture.js";

const AUDIENCE = "api://cpb-test";
const REALM = 'Bearer realm="commercialpolicybenchmark"';
const silent = pino({ level: "silent" });
const IDP_OPTIONS = {
  resources: [
    { audience: AUDIENCE, scopes: ["benchmark:read", "benchmark:admin"] },
    { audience: "api://other-api", scopes: ["benchmark:read"] },
  ],
  clients: [
    { clientId: "reader", clientSecret: "reader-secret", scopes: ["benchmark:read"] },
    { clientId: "admin", clientSecret: "admin-secret", scopes: ["benchmark:read", "benchmark:admin"] },
  ],
};

async function until(condition: () => boolean | Promise<boolean>, ms = 15_000): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < ms; await new Promise((r) => setTimeout(r, 50))) {
    if (await condition()) return true;
  }
  return false;
}

t.test("OpenID Connect bearer tokens against a real provider", async (t) => {
  const idp = await startIdentityProvider(t, IDP_OPTIONS);
  const { knex } = await createTestDatabase(t);
  await insertLookupFixture(knex);
  const startService = async (
    overrides: Partial<JwtAuthenticatorOptions> = {},
    serverOptions: Parameters<typeof startTestServer>[2] = {},
  ) => {
    const authenticator = createJwtAuthenticator({
      issuer: idp.issuer,
      audience: AUDIENCE,
      requiredScopes: ["benchmark:read"],
      log: silent,
      jwksCooldownMs: 0,
      ...overrides,
    });
    authenticator.start();
    t.teardown(() => authenticator.stop());
    t.ok(await until(() => authenticator.ready()), "signing keys load");
    const logLines: Record<string, unknown>[] = [];
    const server = await startTestServer(t, knex, { authenticator, logLines, ...serverOptions });
    return { server, logLines, authenticator };
  };
  const token = (clientId = "reader", extra: { audience?: string; scope?: string } = {}) =>
    fetchAccessToken({
      issuer: idp.issuer,
      clientId,
      clientSecret: `${clientId}-secret`,
      audience: AUDIENCE,
      scope: "benchmark:read",
      ...extra,
    });
  const { server, logLines } = await startService();
  const rest = async (authorization?: string, base = server.url) => {
    const res = await fetch(`${base}/commercialpolicybenchmark/v2.0/company/1001`, {
      headers: authorization ? { authorization } : {},
    });
    return {
      status: res.status,
      challenge: res.headers.get("www-authenticate"),
      body: (await res.json()) as Record<string, unknown>,
    };
  };
  const grpcCode = (authorization?: string, base = server.url) =>
    callWithGrpcJs(base, CompanyService.method.getCompany, { id: 1001n }, authorization ? { authorization } : {}).then(
      () => 0,
      (e: { code: number }) => e.code,
    );

  t.test("a valid token: 200 over REST, OK over gRPC and Connect; the caller is logged, the token never", async (t) => {
    const valid = await token();
    t.equal((await rest(`Bearer ${valid}`)).status, 200);
    t.equal((await rest(`bearer ${valid}`)).status, 200, "the scheme is case-insensitive");
    t.equal(await grpcCode(`Bearer ${valid}`), 0);
    const client = createClient(CompanyService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const { company } = await client.getCompany({ id: 1001n }, { headers: { authorization: `Bearer ${valid}` } });
    t.equal(company?.companyName, "Acme Holdings, Inc.");
    await until(() => logLines.length >= 4);
    t.match(
      logLines.find((l) => l.status === 200),
      { subject: "reader", clientId: "reader" },
    );
    t.notMatch(JSON.stringify(logLines), valid.slice(-20), "no token in the log");
  });

  t.test("a missing token: 401 with the realm; unauthenticated over gRPC", async (t) => {
    const answer = await rest();
    t.equal(answer.status, 401);
    t.equal(answer.challenge, REALM);
    t.match(answer.body, { status: 401, code: "unauthenticated", detail: "an access token is required" });
    t.equal(await grpcCode(), 16);
  });

  const refused: [string, () => Promise<string>, string][] = [
    ["garbage", async () => "Bearer not.a.token", "the token is malformed"],
    [
      "another scheme",
      async () => `Basic ${Buffer.from("a:b").toString("base64")}`,
      "the Authorization header must be Bearer followed by a token",
    ],
    [
      "a token for another audience",
      async () => `Bearer ${await token("reader", { audience: "api://other-api" })}`,
      "the token's aud claim is not accepted",
    ],
    [
      "a token of another issuer, signed with a trusted key",
      async () => {
        const port = await freePort();
        const impostor = await createDevIdentityProvider({
          ...IDP_OPTIONS,
          issuer: `http://127.0.0.1:${port}`,
          keys: idp.keys(),
        });
        const server = (await import("node:http")).createServer((req, res) => impostor.handle(req, res));
        await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
        try {
          return `Bearer ${await fetchAccessToken({ issuer: impostor.issuer, clientId: "reader", clientSecret: "reader-secret", audience: AUDIENCE })}`;
        } finally {
          server.closeAllConnections();
          server.close();
        }
      },
      "the token's iss claim is not accepted",
    ],
    [
      "alg none",
      async () => {
        const claims = decodeJwt(await token());
        return `Bearer ${new UnsecuredJWT(claims).encode()}`;
      },
      "the token's signing algorithm is not accepted",
    ],
    [
      "HS256 with any key",
      async () => {
        const valid = await token();
        const header = decodeProtectedHeader(valid);
        return `Bearer ${await new SignJWT(decodeJwt(valid)).setProtectedHeader({ alg: "HS256", kid: header.kid }).sign(new TextEncoder().encode("a shared secret of enough length!"))}`;
      },
      "the token's signing algorithm is not accepted",
    ],
    [
      "a key that is not in the JWKS",
      async () => {
        const { privateKey } = await generateKeyPair("ES256");
        return `Bearer ${await new SignJWT(decodeJwt(await token())).setProtectedHeader({ alg: "ES256", kid: "not-published" }).sign(privateKey)}`;
      },
      "the token is signed with an unknown key",
    ],
    [
      "a published kid with another key",
      async () => {
        const valid = await token();
        const { privateKey } = await generateKeyPair("ES256");
        return `Bearer ${await new SignJWT(decodeJwt(valid)).setProtectedHeader({ alg: "ES256", kid: decodeProtectedHeader(valid).kid! }).sign(privateKey)}`;
      },
      "the token's signature is not valid",
    ],
  ];
  for (const [name, authorization, description] of refused) {
    t.test(`${name}: 401 invalid_token; unauthenticated over gRPC`, async (t) => {
      const header = await authorization();
      const answer = await rest(header);
      t.equal(answer.status, 401);
      t.equal((await rest(header)).status, 401, "and again: a refusal is not remembered as a success");
      t.equal(answer.challenge, `${REALM}, error="invalid_token", error_description="${description}"`);
      t.match(answer.body, { code: "unauthenticated", detail: description });
      t.equal(await grpcCode(header), 16);
    });
  }

  t.test("an expired token, by the verifier's clock, not by waiting", async (t) => {
    const later = await startService({ now: () => new Date(Date.now() + 2 * 3600_000) });
    const res = await fetch(`${later.server.url}/commercialpolicybenchmark/v2.0/company/1001`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    t.equal(res.status, 401);
    t.equal(
      res.headers.get("www-authenticate"),
      `${REALM}, error="invalid_token", error_description="the token has expired"`,
    );
    const withinTolerance = await startService({ now: () => new Date(Date.now() + 3600_000 + 30_000) });
    const late = await fetch(`${withinTolerance.server.url}/commercialpolicybenchmark/v2.0/company/1001`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    t.equal(late.status, 200, "30 s past exp is within the 60 s tolerance");
  });

  t.test("a missing scope: 403 insufficient_scope; permission_denied over gRPC", async (t) => {
    const strict = await startService({ requiredScopes: ["benchmark:read", "benchmark:admin"] });
    const reader = `Bearer ${await token("reader")}`;
    const res = await fetch(`${strict.server.url}/commercialpolicybenchmark/v2.0/company/1001`, {
      headers: { authorization: reader },
    });
    t.equal(res.status, 403);
    t.equal(
      res.headers.get("www-authenticate"),
      `${REALM}, error="insufficient_scope", error_description="the token lacks the scope benchmark:admin", scope="benchmark:admin"`,
    );
    t.match(await res.json(), { status: 403, code: "permission_denied" });
    t.equal(await grpcCode(reader, strict.server.url), 7);
    const admin = `Bearer ${await token("admin", { scope: "benchmark:read benchmark:admin" })}`;
    t.equal(await grpcCode(admin, strict.server.url), 0, "a token with both scopes passes");
  });

  t.test("key rotation: tokens signed with a new key are accepted without a restart", async (t) => {
    const before = await token();
    await idp.rotateKey();
    const after = await token();
    t.not(decodeProtectedHeader(after).kid, decodeProtectedHeader(before).kid, "the provider signs with a new key");
    t.equal((await rest(`Bearer ${after}`)).status, 200, "the new key is fetched on its first use");
    t.equal((await rest(`Bearer ${before}`)).status, 200, "the old key is still published");
  });

  t.test(
    "a verified token is trusted again without a signature check, until its exp, kept answers included",
    async (t) => {
      let offsetMs = 0;
      // Answers kept too: a kept answer is given to a recognized token only, never past its exp.
      const clocked = await startService(
        { now: () => new Date(Date.now() + offsetMs), trustMs: 3600_000 * 2 },
        { datasetVersion: () => 1, answerCacheBytes: 1 << 20 },
      );
      const header = `Bearer ${await token()}`;
      const hits = () => clocked.authenticator.tokenCache().hits;
      t.equal((await rest(header, clocked.server.url)).status, 200);
      t.equal(hits(), 0, "the first use is verified");
      t.equal((await rest(header, clocked.server.url)).status, 200);
      t.equal(await grpcCode(header, clocked.server.url), 0);
      t.equal(hits(), 2, "later uses, over any protocol, are not");
      offsetMs = 3600_000 + 1_000; // just past exp (the provider's tokens live 1 h)
      t.equal(
        (await rest(header, clocked.server.url)).status,
        200,
        "past exp, within the tolerance: verified again, and accepted",
      );
      t.equal(hits(), 2, "not from the cache");
      offsetMs = 2 * 3600_000;
      const late = await rest(header, clocked.server.url);
      t.equal(late.status, 401);
      t.equal(late.challenge, `${REALM}, error="invalid_token", error_description="the token has expired"`);
      t.equal(clocked.authenticator.tokenCache().entries, 0, "and no longer held");
      t.equal(clocked.authenticator.recognize(header), undefined, "nor recognized");
      t.equal(clocked.authenticator.recognize("Bearer not.a.token"), undefined, "an unknown token is not recognized");
    },
  );

  t.test(
    "a key withdrawn from the JWKS stops being honoured within twice trustMs, cached tokens included",
    async (t) => {
      const brief = await startService({ trustMs: 1_500 });
      const old = `Bearer ${await token()}`;
      t.equal((await rest(old, brief.server.url)).status, 200, "verified and cached");
      await idp.rotateKey();
      const fresh = `Bearer ${await token()}`;
      idp.retireOldKeys();
      t.equal((await rest(old, brief.server.url)).status, 200, "still trusted within trustMs");
      await new Promise((resolve) => setTimeout(resolve, 3_200));
      const refused = await rest(old, brief.server.url);
      t.equal(refused.status, 401, "refused once the JWKS is fetched again");
      t.equal(
        refused.challenge,
        `${REALM}, error="invalid_token", error_description="the token is signed with an unknown key"`,
      );
      t.equal((await rest(fresh, brief.server.url)).status, 200, "the current key's tokens pass");
    },
  );

  t.test("refusals are never cached as successes: each refused token, sent twice, is refused twice", async (t) => {
    const strict = await startService({ requiredScopes: ["benchmark:read", "benchmark:admin"] });
    const reader = `Bearer ${await token("reader")}`;
    for (let i = 0; i < 2; i++) t.equal((await rest(reader, strict.server.url)).status, 403);
    t.equal(strict.authenticator.tokenCache().entries, 0);
  });

  t.test("cpb token gets a token from any issuer that the service accepts", async (t) => {
    const cpb = new URL("../../bin/cpb.js", import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(process.execPath, [
      cpb,
      "token",
      "--issuer",
      idp.issuer,
      "--client-id",
      "reader",
      "--client-secret",
      "reader-secret",
      "--audience",
      AUDIENCE,
    ]);
    t.equal((await rest(`Bearer ${stdout.trim()}`)).status, 200);
  });

  t.test("health stays open; a Connect call without a token is refused", async (t) => {
    t.equal((await fetch(`${server.url}/healthz`)).status, 200);
    t.equal((await fetch(`${server.url}/readyz`)).status, 200);
    const client = createClient(CompanyService, createConnectTransport({ baseUrl: server.url, httpVersion: "2" }));
    const error = await client.getCompany({ id: 1001n }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    t.equal(error?.code, Code.Unauthenticated);
  });
});

t.test("an identity provider down at start-up: not ready, no crash, ready once it answers", async (t) => {
  const { knex } = await createTestDatabase(t);
  const port = await freePort();
  const authenticator = createJwtAuthenticator({
    issuer: `http://127.0.0.1:${port}`,
    audience: AUDIENCE,
    requiredScopes: [],
    log: silent,
  });
  authenticator.start();
  t.teardown(() => authenticator.stop());
  const server = await startTestServer(t, knex, { authenticator });
  const readyz = await fetch(`${server.url}/readyz`);
  t.equal(readyz.status, 503);
  t.match(await readyz.json(), {
    status: "not ready",
    reasons: ["the signing keys are not loaded"],
    datasetVersion: null,
    peerIndex: { state: "off" },
  });
  const call = await fetch(`${server.url}/commercialpolicybenchmark/v2.0/company/1`, {
    headers: { authorization: "Bearer a.b.c" },
  });
  t.equal(call.status, 503, "calls wait for the keys rather than fail as if the token were bad");

  await startIdentityProvider(t, IDP_OPTIONS, port);
  t.ok(await until(async () => (await fetch(`${server.url}/readyz`)).status === 200), "recovers by itself");
});
