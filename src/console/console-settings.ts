/**
 * What the server tells the browser app at `GET /console/config.json` (issue 16), and
 * nothing else configures it: one contract, read by the server that writes it
 * (src/pages/console-site.ts) and the app that reads it (web/src/config.ts).
 * Types only, so the browser bundle takes nothing from the server's side.
 */
export interface ConsoleSettings {
  /** AUTH_ISSUER: where the app discovers the provider's endpoints. */
  issuer: string;
  /** CONSOLE_CLIENT_ID: the public client (authorization code with PKCE; no secret: a browser cannot keep one). */
  clientId: string;
  /**
   * The API's audience (AUTH_AUDIENCE), sent as the RFC 8707 `resource` of the
   * authorization and token requests so the access token is a JWT for the API; null when
   * the provider refuses the parameter (Entra ID's v2 endpoint: the scope names the API
   * there), and the app sends none.
   */
  resource: string | null;
  /** `openid` and the scopes the API requires (AUTH_REQUIRED_SCOPES), space-separated; or CONSOLE_SCOPE. */
  scope: string;
  /** CONSOLE_THIN_GROUP_PROGRAMS: peer groups with fewer programs are flagged as thin. */
  thinGroupPrograms: number;
  /** Where the REST face of the API is, on this origin, e.g. `/commercialpolicybenchmark/v2.0`. */
  apiBase: string;
}
