/**
 * The rooms of src/ from the bottom up: the one place the layout's rules are written
 * down. A room may import from any room of an earlier layer and from itself, never from
 * a room beside it or above it (STYLE.md, "The house": arrows point inward). A room is a
 * folder of src/, or a file at its top. gen/ is the contract, below every room.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // Where the checkout is: the sources and their compilation find files from it.
  ["project-root.ts"],
  // Foundations every room may use: the logger, the version, the configuration error.
  ["log.ts", "service-version.ts", "config-error.ts"],
  // The domain: the rules behind every figure, the OData subset, the reference lists.
  ["benchmark", "search", "reference"],
  // Load control: admission, turns, kept answers, readiness, the request's info.
  ["load-control"],
  // Storage: Knex queries returning plain rows.
  ["store"],
  // What reads and writes the store: the import, the peer index, the RPC plumbing.
  ["ingest", "peer-index", "rpc"],
  // The edges of a call: token checks, the services, the REST transcoder.
  ["auth", "services", "transcoding"],
  // What describes or watches the calls: the OpenAPI document, metrics, the console build.
  ["openapi", "metrics", "console"],
  // The HTML pages and their security headers.
  ["pages"],
  // The development identity provider and database; the configuration reader.
  ["dev", "config.ts"],
  // The composition root, the listener and its drain.
  ["server"],
  // Commands: wiring only.
  ["cli"],
];

/**
 * Programs of their own inside src/, which may import nothing of the rest but what is
 * listed: the console's browser app shares only the settings contract with the server.
 */
export const ISLANDS: Readonly<Record<string, readonly string[]>> = {
  "console/web": ["console/console-settings.ts"],
};
