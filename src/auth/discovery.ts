import { isLoopbackHttp } from "./loopback.js";

const TIMEOUT_MS = 5_000;

/** What the service uses of an OpenID provider's discovery document. */
export interface ProviderMetadata {
  /** Where the signing keys are published. */
  jwksUri: URL;
  /**
   * Where a browser app exchanges its code for tokens: the console's policy must allow
   * calls there, and it may be on another origin than the issuer (Entra ID's login host
   * and tenant, a Keycloak behind a proxy). Undefined when the document names none.
   */
  tokenEndpoint: URL | undefined;
}

/**
 * The endpoints of an OpenID provider, from `{issuer}/.well-known/openid-configuration`
 * (OpenID Connect Discovery 1.0, 4). The document must name the same issuer, and its
 * JWKS and token endpoint must be https unless they are loopback http ones (a local or
 * test provider): the keys are trusted, the console sends codes and tokens there.
 */
export async function discoverProvider(issuer: string): Promise<ProviderMetadata> {
  const url = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const response = await fetch(url, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { accept: "application/json" },
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown; token_endpoint?: unknown };
  if (document.issuer !== issuer) throw new Error(`${url} names the issuer ${String(document.issuer)}, not ${issuer}`);
  if (typeof document.jwks_uri !== "string") throw new Error(`${url} has no jwks_uri`);
  const jwksUri = new URL(document.jwks_uri);
  if (jwksUri.protocol !== "https:" && !isLoopbackHttp(jwksUri))
    throw new Error(`jwks_uri ${jwksUri.href} must be https`);
  const tokenEndpoint =
    typeof document.token_endpoint === "string" && URL.canParse(document.token_endpoint)
      ? new URL(document.token_endpoint)
      : undefined;
  if (tokenEndpoint && tokenEndpoint.protocol !== "https:" && !isLoopbackHttp(tokenEndpoint))
    throw new Error(`token_endpoint ${tokenEndpoint.href} must be https`);
  return { jwksUri, tokenEndpoint };
}
