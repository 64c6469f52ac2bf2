import type { Command } from "commander";
import { ConfigError, readConfig } from "../config.js";
import { generateDataset } from "../ingest/generate/generate-dataset.js";
import { importDataset } from "../ingest/import-dataset.js";
import { createDatabase, migrateToLatest } from "../store/database.js";
import { isoDate, positiveInteger } from "./options.js";

/** `cpb migrate`, `cpb import` and `cpb generate`: the data's way in. */
export function registerDataCommands(program: Command): void {
  program
    .command("migrate")
    .description("apply the database migrations to DATABASE_URL")
    .action(async () => {
      await withDatabase(async (knex) => {
        const applied = await migrateToLatest(knex);
        console.log(applied.length ? `applied ${applied.join(", ")}` : "already up to date");
      });
    });

  program
    .command("import")
    .description("load a folder of CSV files (DATA-FORMAT.md) into DATABASE_URL, in one transaction")
    .argument("<dir>", "the folder to load")
    .action(async (dir: string) => {
      await withDatabase(async (knex) => {
        const summary = await importDataset(knex, dir);
        for (const file of summary.files) {
          console.log(
            `${file.file}: ${file.read} read, ${file.inserted} inserted, ${file.updated} updated in ${(file.elapsedMs / 1000).toFixed(1)} s`,
          );
        }
        console.log(`dataset version ${summary.version}`);
      });
    });

  program
    .command("generate")
    .description("write a realistic synthetic data set (DATA-FORMAT.md), the same for the same seed")
    .argument("<dir>", "the folder to write (created when missing)")
    .option("--companies <n>", "companies", positiveInteger, 20_000)
    .option("--programs <n>", "programs", positiveInteger, 100_000)
    .option("--losses <n>", "loss events", positiveInteger, 20_000)
    .option("--seed <seed>", "random seed (default \"cpb\")")
    .option("--as-of <date>", "the data leads up to this date (YYYY-MM-DD; default today, UTC)", isoDate)
    .action(async (dir: string, options: { companies: number; programs: number; losses: number; seed?: string; asOf?: string }) => {
      const result = await generateDataset(dir, options);
      for (const [file, rows] of Object.entries(result.files)) console.log(`${file}: ${rows} rows`);
    });
}

async function withDatabase<T>(work: (knex: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> {
  const { databaseUrl } = readConfig(process.env, { host: "0.0.0.0" });
  if (!databaseUrl) throw new ConfigError("DATABASE_URL is not set");
  const knex = createDatabase(databaseUrl, { poolMax: 2 });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}
