import type { Command } from "commander";
import { generateDataset } from "../ingest/generate/generate-dataset.js";
import { migrateToLatest } from "../store/database.js";
import { registerImportCommand } from "./import-command.js";
import { isoDate, positiveInteger } from "./options.js";
import { withDatabase } from "./with-database.js";

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

  registerImportCommand(program);

  program
    .command("generate")
    .description("write a realistic synthetic data set (DATA-FORMAT.md), the same for the same seed")
    .argument("<dir>", "the folder to write (created when missing)")
    .option("--companies <n>", "companies", positiveInteger, 20_000)
    .option("--programs <n>", "programs", positiveInteger, 100_000)
    .option("--losses <n>", "loss events", positiveInteger, 20_000)
    .option("--seed <seed>", 'random seed (default "cpb")')
    .option("--as-of <date>", "the data leads up to this date (YYYY-MM-DD; default today, UTC)", isoDate)
    .action(
      async (
        dir: string,
        options: { companies: number; programs: number; losses: number; seed?: string; asOf?: string },
      ) => {
        const result = await generateDataset(dir, options);
        for (const [file, rows] of Object.entries(result.files)) console.log(`${file}: ${rows} rows`);
      },
    );
}
