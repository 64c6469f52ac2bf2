import type { Knex } from "knex";
import { pino } from "pino";
import { fetchAccessToken } from "../../src/auth/client-credentials.js";
import { createJwtAuthenticator } from "../../src/auth/jwt-authenticator.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../src/dev/dev-identity.js";
import type { RunningServer } from "../../src/server/http-server.js";
import { startIdentityProvider } from "./identity-provider.js";
import { waitFor } from "./peer-index.js";
import { startTestServer } from "./server.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * The real server behind real authentication, as `cpb serve` runs: a JWT authenticator
 * on the dev OpenID provider (its own loopback port), and a token of that provider by
 * the client-credentials grant, as `cpb token` gets one. Everything closes with the test.
 */
export async function startAuthenticatedServer(
  t: Teardown,
  knex: Knex,
  options: Omit<Parameters<typeof startTestServer>[2], "authenticator"> = {},
): Promise<{ server: RunningServer; authorization: string }> {
  const idp = await startIdentityProvider(t, {
    resources: [{ audience: DEV_AUDIENCE, scopes: [DEV_SCOPE] }],
    clients: [DEV_CLIENT],
  });
  const authenticator = createJwtAuthenticator({
    issuer: idp.issuer,
    audience: DEV_AUDIENCE,
    requiredScopes: [DEV_SCOPE],
    log: pino({ level: "silent" }),
  });
  authenticator.start();
  t.teardown(() => authenticator.stop());
  await waitFor(() => authenticator.ready(), "the signing keys");
  const token = await fetchAccessToken({ issuer: idp.issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
  // /openapi.json names the provider, as under `cpb serve`: the reference then offers its openId scheme too.
  const server = await startTestServer(t, knex, {
    tokens: { issuer: idp.issuer, scopes: [DEV_SCOPE] },
    ...options,
    authenticator,
  });
  return { server, authorization: `Bearer ${token}` };
}
