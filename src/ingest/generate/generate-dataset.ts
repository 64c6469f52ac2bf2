import { mkdir } from "node:fs/promises";
import { createCalendar, parseIsoDate, todayUtc } from "./calendar.js";
import { createRandom } from "./random.js";
import { writeCompanies } from "./write-companies.js";
import { LOSS_DAYS, writeLosses } from "./write-losses.js";
import { PROGRAM_DAYS, writePrograms } from "./write-programs.js";
import { writeReferenceData } from "./write-reference-data.js";

export interface GenerateOptions {
  /** Default 20,000. */
  companies?: number;
  /** Default 100,000. */
  programs?: number;
  /** Default 20,000. */
  losses?: number;
  /** The same seed, counts and as-of date give byte-identical files. Default "cpb". */
  seed?: string | number;
  /** `YYYY-MM-DD`: no program or loss is dated after it. Default today (UTC). */
  asOf?: string;
}

export interface GenerateResult {
  /** Rows written per file name (headers not counted). */
  files: Record<string, number>;
}

/**
 * Writes a realistic synthetic data set in the CSV folder format (DATA-FORMAT.md)
 * into `dir`, creating it when missing. Every table draws from its own stream of
 * the seed, so the companies do not change when only the program count does.
 */
export async function generateDataset(dir: string, options: GenerateOptions = {}): Promise<GenerateResult> {
  const companies = count("companies", options.companies ?? 20_000);
  const programs = count("programs", options.programs ?? 100_000);
  const losses = count("losses", options.losses ?? 20_000);
  const seed = options.seed ?? "cpb";
  const asOf = options.asOf ?? todayUtc();
  parseIsoDate(asOf);

  await mkdir(dir, { recursive: true });
  const calendar = createCalendar(asOf, Math.max(PROGRAM_DAYS, LOSS_DAYS));
  const files = await writeReferenceData(dir);
  const book = await writeCompanies(dir, companies, createRandom(seed, "companies"));
  files["companies.csv"] = book.count;
  files["programs.csv"] = await writePrograms(dir, programs, book, calendar, createRandom(seed, "programs"));
  files["losses.csv"] = await writeLosses(dir, losses, book, calendar, createRandom(seed, "losses"));
  return { files };
}

function count(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a whole number >= 0, not ${value}`);
  return value;
}
