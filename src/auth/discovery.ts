import { isLoopbackHttp } from "./loopback.js";

const TIMEOUT_MS = 5_000;

/**
 * The `jwks_uri` of an OpenID provider, from `{issuer}/.well-known/openid-configuration`
 * (OpenID Connect Discovery 1.0, 4). The document must name the same issuer, and
 * its JWKS must be https unless the issuer is a loopback http one.
 */
export async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) throw new Error(`${url} names the issuer ${String(document.issuer)}, not ${issuer}`);
  if (typeof document.jwks_uri !== "string") throw new Error(`${url} has no jwks_uri`);
  const jwksUri = new URL(document.jwks_uri);
  if (jwksUri.protocol !== "https:" && !isLoopbackHttp(jwksUri)) throw new Error(`jwks_uri ${jwksUri.href} must be https`);
  return jwksUri;
}
