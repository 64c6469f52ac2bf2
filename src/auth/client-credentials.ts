import * as oidc from "openid-client";
import { isLoopbackHttp } from "./loopback.js";

export interface ClientCredentials {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The API the token is for (RFC 8707 `resource`); the provider's default when absent. */
  audience?: string;
  scope?: string;
}

/**
 * An access token by the client-credentials grant, from any OpenID provider found by
 * discovery (openid-client). Plain http is allowed for loopback issuers only.
 */
export async function fetchAccessToken(credentials: ClientCredentials): Promise<string> {
  const issuer = new URL(credentials.issuer);
  const configuration = await oidc.discovery(
    issuer,
    credentials.clientId,
    undefined,
    oidc.ClientSecretBasic(credentials.clientSecret),
    { execute: isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [] },
  );
  const parameters: Record<string, string> = {};
  if (credentials.audience) parameters.resource = credentials.audience;
  if (credentials.scope) parameters.scope = credentials.scope;
  const tokens = await oidc.clientCredentialsGrant(configuration, parameters);
  return tokens.access_token;
}
