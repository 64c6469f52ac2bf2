import type { ConsoleSettings } from "../../console-settings.js";

/** The console's settings, as the server gives them (one contract with the server). */
export type ConsoleConfig = ConsoleSettings;

/** Reads the config once at start-up; a missing member is a deployment error, reported as such. */
export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch("/console/config.json", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`the console's configuration could not be read (HTTP ${response.status})`);
  const raw = (await response.json()) as Partial<ConsoleConfig>;
  for (const key of ["issuer", "clientId", "scope", "apiBase"] as const) {
    if (typeof raw[key] !== "string" || raw[key] === "") throw new Error(`the console's configuration lacks ${key}`);
  }
  if (raw.resource !== null && (typeof raw.resource !== "string" || raw.resource === ""))
    throw new Error("the console's configuration lacks resource");
  return {
    issuer: raw.issuer!,
    clientId: raw.clientId!,
    resource: raw.resource,
    scope: raw.scope!,
    thinGroupPrograms: typeof raw.thinGroupPrograms === "number" ? raw.thinGroupPrograms : 5,
    apiBase: raw.apiBase!.replace(/\/+$/, ""),
  };
}
