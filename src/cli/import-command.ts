import type { Command } from "commander";
import cliProgress from "cli-progress";
import { ImportRejectedError, importDataset, type ImportSummary } from "../ingest/import-dataset.js";
import { ImportError } from "../ingest/import-errors.js";
import { formatReject } from "../ingest/reject-report.js";
import { withDatabase } from "./with-database.js";

const SHOWN_PROBLEMS = 50;
/** Files smaller than this finish before a progress bar would be worth drawing. */
const PROGRESS_MIN_BYTES = 8 * 1024 * 1024;
const PLAIN_PROGRESS_EVERY_MS = 5_000;

/** `cpb import DIR [--replace] [--skip-invalid] [--rejects FILE]` (DATA-FORMAT.md, Import rules). */
export function registerImportCommand(program: Command): void {
  program
    .command("import")
    .description("load a folder of CSV files (DATA-FORMAT.md) into DATABASE_URL, in one transaction")
    .argument("<dir>", "the folder to load")
    .option("--replace", "make each file present the whole content of its table")
    .option("--skip-invalid", "load the good rows and report the rest, instead of loading nothing")
    .option("--rejects <file>", "also write every problem to this CSV file (file,line,column,value,reason)")
    .action(async (dir: string, options: { replace?: boolean; skipInvalid?: boolean; rejects?: string }) => {
      const progress = createProgress();
      await withDatabase(async (knex) => {
        let summary: ImportSummary;
        try {
          summary = await importDataset(knex, dir, {
            replace: options.replace,
            skipInvalid: options.skipInvalid,
            rejectsFile: options.rejects,
            reportLimit: SHOWN_PROBLEMS,
            onProgress: progress.update,
          });
        } catch (error) {
          progress.stop();
          if (error instanceof ImportRejectedError) {
            report(error.summary);
            console.log(`nothing was imported (--skip-invalid loads the good rows)`);
            process.exitCode = 1;
            return;
          }
          if (error instanceof ImportError) {
            console.log(`${error.message}\nnothing was imported`);
            process.exitCode = 1;
            return;
          }
          throw error;
        }
        progress.stop();
        report(summary);
        console.log(`dataset version ${summary.version}`);
      });
    });
}

/** The problems (the first 50, then a count) and a line per file. */
function report(summary: ImportSummary): void {
  for (const reject of summary.rejects.first) console.log(formatReject(reject));
  const more = summary.rejects.total - summary.rejects.first.length;
  if (more > 0) console.log(`… and ${more} more problem${more === 1 ? "" : "s"}`);
  for (const file of summary.files) {
    const deleted = file.deleted ? `, ${file.deleted} deleted` : "";
    console.log(
      `${file.file}: ${file.read} read, ${file.inserted} inserted, ${file.updated} updated, ${file.rejected} rejected${deleted} in ${(file.elapsedMs / 1000).toFixed(1)} s`,
    );
  }
}

/**
 * Progress of large files: a bar on a terminal (cli-progress), plain lines every few
 * seconds otherwise, on stderr so the report on stdout stays clean.
 */
function createProgress() {
  const bars = process.stderr.isTTY
    ? new cliProgress.MultiBar(
        { stream: process.stderr, format: "{file} [{bar}] {percentage}% | {value}/{total} MB", hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const current = new Map<string, cliProgress.SingleBar | undefined>();
  let lastLine = 0;
  return {
    update(file: string, bytesRead: number, bytesTotal: number) {
      if (bytesTotal < PROGRESS_MIN_BYTES) return;
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      if (bars) {
        if (!current.has(file)) current.set(file, bars.create(mb(bytesTotal), 0, { file }));
        current.get(file)?.update(mb(bytesRead), { file });
      } else if (Date.now() - lastLine >= PLAIN_PROGRESS_EVERY_MS || bytesRead === bytesTotal) {
        lastLine = Date.now();
        console.error(
          `${file}: ${Math.floor((100 * bytesRead) / bytesTotal)}% read (${mb(bytesRead)} of ${mb(bytesTotal)} MB)`,
        );
      }
    },
    stop() {
      bars?.stop();
    },
  };
}
