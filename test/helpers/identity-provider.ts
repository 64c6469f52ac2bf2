import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  createDevIdentityProvider,
  type DevIdentityProvider,
  type DevIdentityProviderOptions,
} from "../../src/dev/identity-provider.js";

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A real oidc-provider on its own free loopback port (or the given one), closed with the test. */
export async function startIdentityProvider(
  t: Teardown,
  options: Omit<DevIdentityProviderOptions, "issuer">,
  port = 0,
): Promise<DevIdentityProvider & { port: number; close(): Promise<void> }> {
  // The issuer names the port, so the provider comes after the listening server.
  const mounted: { provider?: DevIdentityProvider } = {};
  const server = http.createServer((req, res) => mounted.provider!.handle(req, res));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const actualPort = (server.address() as AddressInfo).port;
  const provider = await createDevIdentityProvider({ ...options, issuer: `http://127.0.0.1:${actualPort}` });
  mounted.provider = provider;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.teardown(close);
  return { ...provider, port: actualPort, close };
}
