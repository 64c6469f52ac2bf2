import type { Command } from "commander";
import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { createAnonymousAuthenticator } from "../auth/authenticator.js";
import { readConfig } from "../config.js";
import { startEmbeddedPostgres } from "../dev/embedded-postgres.js";
import { generateDataset } from "../ingest/generate/generate-dataset.js";
import { importDataset } from "../ingest/import-dataset.js";
import { createLogger } from "../log.js";
import { createDatabase, migrateToLatest } from "../store/database.js";
import { port } from "./options.js";
import { runServer } from "./run-server.js";

const STATE_DIR = ".cpb";
const DATABASE_NAME = "cpb";

/** `cpb dev`: everything embedded, for a laptop. `npm start` runs it. */
export function registerDevCommand(program: Command): void {
  program
    .command("dev")
    .description("run the service on an embedded PostgreSQL (kept under .cpb/) with demo data")
    .option("--data <dir>", "import this folder instead of generating demo data")
    .option("--port <n>", "port to listen on (default PORT or 8080)", port)
    .option("--fresh", "start from an empty database")
    .action(async (options: { data?: string; port?: number; fresh?: boolean }) => {
      const config = readConfig(process.env, { host: "127.0.0.1" });
      const log = createLogger(config.logLevel);
      const stateDir = path.resolve(STATE_DIR);
      if (options.fresh) await rm(path.join(stateDir, "pgdata"), { recursive: true, force: true });

      console.error("starting the embedded PostgreSQL…");
      const postgres = await startEmbeddedPostgres(path.join(stateDir, "pgdata"));
      const url = await ensureDatabase(postgres.url, DATABASE_NAME);
      const knex = createDatabase(url);
      await migrateToLatest(knex);
      if (options.data) {
        await importDataset(knex, options.data);
      } else if (await isEmpty(knex)) {
        console.error("generating and importing demo data…");
        const demoDir = path.join(stateDir, "demo-data");
        await generateDataset(demoDir, { seed: "demo" });
        await importDataset(knex, demoDir);
      }

      const server = await runServer({
        knex,
        authenticator: createAnonymousAuthenticator(),
        log,
        port: options.port ?? config.port,
        host: config.host,
        asOf: config.asOf,
        cleanup: () => postgres.stop(),
      });
      const companyId = (await knex("companies").min("company_id as id").first())?.id ?? 1;
      console.error(banner(server.url, String(companyId)));
    });
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

function banner(baseUrl: string, companyId: string): string {
  const address = baseUrl.replace(/^http:\/\//, "");
  return [
    "",
    `Commercial Policy Benchmark service at ${baseUrl}`,
    "",
    "Try it:",
    `  curl -s ${baseUrl}/commercialpolicybenchmark/v2.0/company/${companyId}`,
    `  npx buf curl --protocol grpc --http2-prior-knowledge --schema proto \\`,
    `    -d '{"id": ${companyId}}' ${baseUrl}/commercialpolicybenchmark.v2.CompanyService/GetCompany`,
    "",
    `(${address} also serves gRPC-Web and Connect; Ctrl-C stops it.)`,
    "",
  ].join("\n");
}
