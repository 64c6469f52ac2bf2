/**
 * The identity of `cpb dev`: its provider is mounted on the service's own port under
 * /oidc, with one documented client. These are development credentials, published
 * in the README; they exist only inside `cpb dev`.
 */
export const DEV_ISSUER_PATH = "/oidc";
export const DEV_AUDIENCE = "api://commercialpolicybenchmark";
export const DEV_SCOPE = "benchmark:read";
export const DEV_CLIENT = { clientId: "cpb-dev", clientSecret: "cpb-dev-secret", scopes: [DEV_SCOPE] };

export function devIssuer(port: number): string {
  return `http://127.0.0.1:${port}${DEV_ISSUER_PATH}`;
}

/** Someone who may sign in at the dev provider's login page. */
export interface DevUser {
  username: string;
  password: string;
  name: string;
}

/** The person who signs in to the console under `cpb dev` (printed in the banner). */
export const DEV_USER = { username: "demo", password: "demo-password", name: "Demo Broker" };

/** The console as a public client of the dev provider: its redirect and post-logout URI are the console's own page. */
export function devConsoleClient(baseUrl: string, clientId: string, scopes: string[]) {
  const consoleUrl = `${baseUrl}/console/`;
  return { clientId, redirectUris: [consoleUrl], postLogoutRedirectUris: [consoleUrl], scopes };
}
