import type { JsonObject } from "./json-object.js";

/** The schemes' names: either one authorizes every operation. */
const OPENID_SCHEME = "openId";
const BEARER_SCHEME = "bearerToken";

/**
 * How callers authenticate (spec 5, CONVENTIONS.md "Authentication"): an access token
 * from the OpenID Connect provider, as `Authorization: Bearer <token>`, which two
 * schemes describe, either sufficing:
 * - `openIdConnect`, its discovery URL built as discovery.ts builds it (one trailing
 *   slash of the issuer dropped), for tools that sign in themselves; only with a known
 *   issuer: OpenAPI 3.1 requires the URL, and a made-up one sends tools nowhere;
 * - an HTTP bearer JWT, for a token obtained elsewhere and pasted (the reference's
 *   "Try it", Postman), whatever the issuer.
 */
export function securitySchemes(issuer: string | undefined): JsonObject {
  const bearer = {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "An access token (a JWT) from the service's OpenID Connect provider, pasted as it is. Get one with `cpb token` (client credentials), or under `cpb dev` copy the one its banner prints. The reference page's Try-it uses this scheme.",
  };
  if (issuer === undefined) return { [BEARER_SCHEME]: bearer };
  return {
    [OPENID_SCHEME]: {
      type: "openIdConnect",
      openIdConnectUrl: `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
      description: "An access token from the OpenID Connect provider, sent as `Authorization: Bearer <token>`.",
    },
    [BEARER_SCHEME]: bearer,
  };
}

/**
 * The Security Requirements of every operation, alternatives. Scopes are listed for
 * `openIdConnect` only: for other schemes OpenAPI 3.1 reads the list as role names.
 */
export function securityRequirement(issuer: string | undefined, scopes: readonly string[]): JsonObject[] {
  return issuer === undefined ? [{ [BEARER_SCHEME]: [] }] : [{ [OPENID_SCHEME]: [...scopes] }, { [BEARER_SCHEME]: [] }];
}
