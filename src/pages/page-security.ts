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
 * Whether `origin` may be written into a policy's source list: `http(s)://host[:port]`
 * with a host of letters, digits, hyphens and dots (CSP 3, 2.3.1: host-char is ALPHA,
 * DIGIT or "-") or an IPv6 literal. A URL's origin may hold what a source list reads
 * otherwise: `new URL("https://*").origin` is "https://*", which allows every host,
 * and a host with `;` or `'` would end the directive or add a keyword ('unsafe-eval').
 */
export function isPolicyOrigin(origin: string): boolean {
  return /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(origin);
}

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
  // AUTH_ISSUER is checked to be an https (or loopback http) URL, which its origin may still not be.
  if (!isPolicyOrigin(issuerOrigin))
    throw new Error(`AUTH_ISSUER's origin ${issuerOrigin} cannot be named in the console's Content-Security-Policy`);
  const bad = connectOrigins.find((origin) => !isPolicyOrigin(origin));
  if (bad !== undefined) throw new Error(`${bad} cannot be named in the console's Content-Security-Policy`);
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
