/** What the server tells the console at `GET /console/config.json` (issue 16). */
export interface ConsoleConfig {
  /** The OpenID provider (discovery at `{issuer}/.well-known/openid-configuration`). */
  issuer: string;
  /** The console's public client (no secret: a browser cannot keep one). */
  clientId: string;
  /**
   * The API's audience, sent as an RFC 8707 resource indicator so the access token is a
   * JWT for the API; null for providers that refuse the parameter (Entra ID v2, where
   * the scope names the API instead).
   */
  resource: string | null;
  scope: string;
  /** Below this many programs a peer group is flagged as thin. */
  thinGroupPrograms: number;
  /** The API's path prefix, e.g. `/commercialpolicybenchmark/v2.0`. */
  apiBase: string;
}

/** Reads the config once at start-up; a missing member is a deployment error, reported as such. */
export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch("/console/config.json", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`the console's configuration could not be read (HTTP ${response.status})`);
  const raw = (await response.json()) as Partial<ConsoleConfig>;
  for (const key of ["issuer", "clientId", "scope", "apiBase"] as const) {
    if (typeof raw[key] !== "string" || raw[key] === "") throw new Error(`the console's configuration lacks ${key}`);
  }
  if (raw.resource !== null && (typeof raw.resource !== "string" || raw.resource === "")) throw new Error("the console's configuration lacks resource");
  return {
    issuer: raw.issuer!,
    clientId: raw.clientId!,
    resource: raw.resource,
    scope: raw.scope!,
    thinGroupPrograms: typeof raw.thinGroupPrograms === "number" ? raw.thinGroupPrograms : 5,
    apiBase: raw.apiBase!.replace(/\/+$/, ""),
  };
}
