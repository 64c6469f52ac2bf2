import type { Command } from "commander";
import { readAuthConfig } from "../auth/auth-config.js";
import { createJwtAuthenticator } from "../auth/jwt-authenticator.js";
import { ConfigError } from "../config-error.js";
import { readConfig } from "../config.js";
import { createLogger } from "../log.js";
import { consolePaths } from "../console/console-build.js";
import { consoleSettings, createConsoleSite } from "../pages/console-site.js";
import { createDatabase, SERVER_QUERY_TIMEOUT_MS } from "../store/database.js";
import { runServer } from "./run-server.js";

/**
 * `cpb serve`: the production server. It needs DATABASE_URL, AUTH_ISSUER and
 * AUTH_AUDIENCE and exits 2 naming what is missing; no option turns authentication
 * off. Several may share one database; only `cpb migrate` changes the schema.
 */
export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the API on DATABASE_URL, verifying OpenID Connect tokens from AUTH_ISSUER")
    .action(async () => {
      const config = readConfig(process.env, { host: "0.0.0.0" });
      const missing = [
        !config.databaseUrl && "DATABASE_URL",
        !process.env.AUTH_ISSUER?.trim() && "AUTH_ISSUER",
        !process.env.AUTH_AUDIENCE?.trim() && "AUTH_AUDIENCE",
      ].filter(Boolean);
      if (missing.length)
        throw new ConfigError(
          `${missing.join(", ")} must be set (the service never runs without a database and authentication)`,
        );
      const auth = readAuthConfig(process.env);
      const log = createLogger(config.logLevel);
      const knex = createDatabase(config.databaseUrl!, { queryTimeoutMs: SERVER_QUERY_TIMEOUT_MS });
      // Served as built (npm run build:console); without a bundle, /console/ says how to build it.
      const consoleSite = createConsoleSite({
        distDir: consolePaths().outDir,
        settings: consoleSettings({ ...auth, ...config.console }),
        connectSrc: config.console.connectSrc,
        log,
      });
      // The discovery document the keys are found by also names the token endpoint the console calls.
      const authenticator = createJwtAuthenticator({
        ...auth,
        log,
        onDiscovered: ({ tokenEndpoint }) => tokenEndpoint && consoleSite.allowConnect(tokenEndpoint),
      });
      authenticator.start();
      await runServer({
        knex,
        databaseUrl: config.databaseUrl!,
        authenticator,
        log,
        port: config.port,
        host: config.host,
        asOf: config.asOf,
        peerIndex: config.peerIndex,
        scanThread: config.scanThread,
        answerCacheBytes: config.answerCacheBytes,
        admission: config.admission,
        drainMs: config.drainMs,
        corsOrigins: config.corsOrigins,
        disclosure: config.disclosure,
        tokens: { issuer: auth.issuer, scopes: auth.requiredScopes },
        metricsPort: config.metricsPort,
        console: consoleSite,
        cleanup: async () => authenticator.stop(),
      });
    });
}
