import http from "node:http";
import type { AddressInfo } from "node:net";
import { fetchAccessToken } from "../../../src/auth/client-credentials.js";
import { DEV_AUDIENCE, DEV_CLIENT, DEV_SCOPE } from "../../../src/dev/dev-identity.js";
import { createDevIdentityProvider, type DevIdentityProvider } from "../../../src/dev/identity-provider.js";

export interface BenchIdentity {
  issuer: string;
  audience: string;
  token: string;
  close(): Promise<void>;
}

/** Long enough for a whole run at Advisen scale; the token is verified the same way whatever its lifetime. */
const TOKEN_TTL_SECONDS = 24 * 3600;

/**
 * The dev OpenID provider (oidc-provider) on its own loopback port inside the bench
 * process, as test/helpers/identity-provider.ts runs it, and a token from it by the
 * client-credentials grant, as `cpb token` gets one.
 */
export async function startIdentity(): Promise<BenchIdentity> {
  const mounted: { provider?: DevIdentityProvider } = {};
  const server = http.createServer((req, res) => mounted.provider?.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mounted.provider = await createDevIdentityProvider({
    issuer,
    resources: [{ audience: DEV_AUDIENCE, scopes: [DEV_SCOPE] }],
    clients: [DEV_CLIENT],
    accessTokenTtlSeconds: TOKEN_TTL_SECONDS,
  });
  const token = await fetchAccessToken({ issuer, ...DEV_CLIENT, audience: DEV_AUDIENCE, scope: DEV_SCOPE });
  return {
    issuer,
    audience: DEV_AUDIENCE,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
