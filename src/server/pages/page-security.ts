import { createHash } from "node:crypto";

/** `'sha256-…'` of an inline style or script, for a Content-Security-Policy that allows only it. */
export function cspHash(inline: string): string {
  return `'sha256-${createHash("sha256").update(inline, "utf8").digest("base64")}'`;
}

/** Nothing from elsewhere, no frames, no forms, no base: what every page of ours starts from. */
export const BASE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers every page carries besides its policy. */
export const PAGE_HEADERS = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };
