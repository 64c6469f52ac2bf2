import { ConfigError } from "../config-error.js";
import { isLoopbackHttp } from "./loopback.js";

export interface AuthConfig {
  issuer: string;
  audience: string;
  requiredScopes: string[];
}

/**
 * AUTH_ISSUER, AUTH_AUDIENCE and AUTH_REQUIRED_SCOPES (CONVENTIONS.md). Both of the
 * first two are required: the service never starts without authentication. The
 * issuer must be https, or http on a loopback host (a local or test provider).
 */
export function readAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  const missing = ["AUTH_ISSUER", "AUTH_AUDIENCE"].filter((name) => !env[name]?.trim());
  if (missing.length)
    throw new ConfigError(`${missing.join(" and ")} must be set: the service never runs without authentication`);
  const issuer = env.AUTH_ISSUER!.trim();
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`AUTH_ISSUER is not a URL: "${issuer}"`);
  }
  if (url.protocol !== "https:" && !isLoopbackHttp(url)) {
    throw new ConfigError("AUTH_ISSUER must be https:// (plain http:// only on a loopback host)");
  }
  return {
    issuer,
    audience: env.AUTH_AUDIENCE!.trim(),
    requiredScopes: (env.AUTH_REQUIRED_SCOPES ?? "").split(/\s+/).filter(Boolean),
  };
}
