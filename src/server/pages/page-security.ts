import { createHash } from "node:crypto";

/** `'sha256-…'` of an inline style or script, for a Content-Security-Policy that allows only it. */
export function cspHash(inline: string): string {
  return `'sha256-${createHash("sha256").update(inline, "utf8").digest("base64")}'`;
}

/** Nothing from elsewhere, no frames, no forms, no base: what every page of ours starts from. */
export const BASE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers every page carries besides its policy. */
export const PAGE_HEADERS = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

/**
 * The console's policy: its own scripts and styles only (Vite emits no inline script),
 * images also as data: and blob: URLs (ECharts' "save as image"), calls to this origin,
 * the identity provider's (its discovery document) and `connectOrigins` (the token
 * endpoint's, which may be another host: Entra ID's login host, a Keycloak behind a
 * proxy; and CONSOLE_CONNECT_SRC), and form-action to the issuer's origin, since sign-in
 * and sign-out navigate there. Under `cpb dev` the issuer's origin is this one: naming
 * it again is harmless.
 */
export function consolePolicy(issuer: string, connectOrigins: readonly string[] = []): string {
  const issuerOrigin = new URL(issuer).origin;
  const connect = [...new Set([issuerOrigin, ...connectOrigins])];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' ${connect.join(" ")}`,
    `form-action 'self' ${issuerOrigin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
