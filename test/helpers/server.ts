import type { Knex } from "knex";
import { pino } from "pino";
import type { Authenticator } from "../../src/auth/authenticator.js";
import type { PeerIndex } from "../../src/peer-index/peer-index.js";
import type { DisclosureRule } from "../../src/benchmark/disclosure-rule.js";
import type { ConsoleSite } from "../../src/pages/console-site.js";
import { createApp } from "../../src/server/create-app.js";
import { startHttpServer, type RunningServer } from "../../src/server/http-server.js";

/**
 * Accepts every call as one anonymous caller: for tests of everything but
 * authentication, which test/auth/ covers against a real OpenID provider.
 */
export const anonymousAuthenticator: Authenticator = {
  async authenticate() {
    return { subject: "anonymous", scopes: [] };
  },
  ready: () => true,
};

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The real server on a free loopback port, over the given database; closed with the test. */
export async function startTestServer(
  t: Teardown,
  knex: Knex,
  options: {
    authenticator?: Authenticator;
    logLines?: object[];
    asOf?: string;
    peerIndex?: PeerIndex;
    /** The dataset version as a watcher would report it; with answerCacheBytes, answers are cached. */
    datasetVersion?: () => number | undefined;
    /** The admission gate of the peer-group calls (ANALYTICS_CONCURRENCY, _QUEUE, _MAX_WAIT_MS). */
    admission?: { concurrency: number; maxQueue: number; maxWaitMs: number };
    /** What the watcher waits for, as /readyz says it. */
    datasetWaitingFor?: () => string | undefined;
    answerCacheBytes?: number;
    corsOrigins?: string[];
    disclosure?: DisclosureRule;
    console?: ConsoleSite;
    /** The tokens' issuer and scopes, as /openapi.json states them (`cpb serve` passes AUTH_ISSUER's). */
    tokens?: { issuer: string; scopes: readonly string[] };
  } = {},
): Promise<RunningServer> {
  const log = pino(
    { level: "info" },
    { write: (line: string) => void options.logLines?.push(JSON.parse(line) as object) },
  );
  const app = createApp({
    knex,
    authenticator: options.authenticator ?? anonymousAuthenticator,
    log,
    asOf: options.asOf,
    peerIndex: options.peerIndex,
    datasetVersion: options.datasetVersion,
    datasetWaitingFor: options.datasetWaitingFor,
    admission: options.admission,
    answerCacheBytes: options.answerCacheBytes,
    corsOrigins: options.corsOrigins,
    disclosure: options.disclosure,
    console: options.console,
    tokens: options.tokens,
  });
  const server = await startHttpServer(app, { port: 0, host: "127.0.0.1" });
  t.teardown(() => server.close(1_000));
  return server;
}
