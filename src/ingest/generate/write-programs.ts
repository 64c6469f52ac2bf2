import path from "node:path";
import type { Calendar } from "./calendar.js";
import type { CompanyBook } from "./write-companies.js";
import { COVERAGES, type CoverageSpec, type LineOfBusinessSpec } from "./coverages.js";
import { formatMoney } from "./csv-text.js";
import type { Random } from "./random.js";
import { createWeightedIndex, createWeightedPick } from "./weighted.js";
import { writeCsvFile } from "./write-csv-file.js";

// Limits are bought on a ladder of round amounts; 100K and 1M are the band edges of
// the benchmark's limit bands, so plenty of programs sit exactly on them.
const LIMITS = [
  100_000, 250_000, 500_000, 1_000_000, 2_000_000, 3_000_000, 5_000_000, 10_000_000, 15_000_000, 20_000_000, 25_000_000,
  50_000_000, 75_000_000, 100_000_000, 150_000_000, 200_000_000, 250_000_000, 300_000_000, 500_000_000,
];
const RETENTIONS = [
  0, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000,
];
const PARTNERS = Array.from({ length: 12 }, (_, i) => ({
  code: `P${String(i + 1).padStart(3, "0")}`,
  weight: 12 / (i + 2),
}));

/** Days back from the as-of date over which programs are written: about ten years. */
export const PROGRAM_DAYS = 3653;

/** Writes programs.csv with ids 1..count over the companies of `book`. */
export async function writePrograms(
  dir: string,
  count: number,
  book: CompanyBook,
  calendar: Calendar,
  random: Random,
): Promise<number> {
  if (count > 0 && book.count === 0) throw new RangeError("programs need at least one company");
  // Bigger companies buy more programs: weight grows with revenue, gently.
  const typicalRevenue = 20e6;
  const weights = new Float64Array(book.count);
  const logRevenue = new Float64Array(book.count);
  for (let i = 0; i < book.count; i++) {
    const revenue = book.revenues[i] as number;
    const known = Number.isNaN(revenue) ? typicalRevenue : revenue;
    weights[i] = Math.pow(known, 0.3);
    logRevenue[i] = Math.log10(known);
  }
  const pickCompany = createWeightedIndex(weights);
  const pickCoverage = createWeightedPick(COVERAGES);
  const pickLine = new Map<CoverageSpec, (u: number) => LineOfBusinessSpec>(
    COVERAGES.map((coverage) => [coverage, createWeightedPick(coverage.lines)]),
  );
  const pickPartner = createWeightedPick(PARTNERS);
  const lastDay = Math.min(PROGRAM_DAYS, calendar.days) - 1;

  function* rows(): Generator<string> {
    for (let i = 0; i < count; i++) {
      const company = pickCompany(random.next());
      const coverage = pickCoverage(random.next());
      const line = (pickLine.get(coverage) as (u: number) => LineOfBusinessSpec)(random.next());

      // u^1.5 crowds dates toward the as-of date: about a third of the book falls in
      // the last two years, as a growing book of business does.
      let daysBack = Math.floor(lastDay * Math.pow(random.next(), 1.5));
      if (random.chance(0.35)) daysBack = calendar.monthStart(daysBack); // renewals on the 1st

      const size = logRevenue[company] as number;
      const ladder = 3 + (size - 6) * 1.8 + coverage.limitShift + random.normal() * 1.1;
      let limit = LIMITS[clamp(Math.round(ladder), 0, LIMITS.length - 1)] as number;
      if (random.chance(0.03)) limit = Math.round((limit * (0.5 + random.next())) / 1000) * 1000;

      const rate = clamp(random.logNormal(Math.log(coverage.rateOnLine), 0.55), 0.0005, 0.5);
      const premium = limit * rate;

      const retentionStep = 2 + (size - 6) * 0.9 + coverage.retentionShift + random.normal() * 0.8;
      const retention = random.chance(line.zeroRetentionShare ?? 0.03)
        ? 0
        : (RETENTIONS[clamp(Math.round(retentionStep), 1, RETENTIONS.length - 1)] as number);

      const u = random.next();
      const source = u < 0.15 ? "curated" : u < 0.16 ? "" : pickPartner(random.next()).code;

      yield (
        `${i + 1},${company + 1},${coverage.id},${line.id},${calendar.date(daysBack)},` +
        `${random.chance(0.02) ? "" : limit},` +
        `${random.chance(0.03) ? "" : formatMoney(premium, random.chance(0.45))},` +
        `${random.chance(0.04) ? "" : retention},${source}`
      );
    }
  }

  return writeCsvFile(
    path.join(dir, "programs.csv"),
    [
      "program_id",
      "company_id",
      "coverage_id",
      "line_of_business_id",
      "effective_date",
      "limit",
      "premium",
      "retention",
      "source",
    ],
    rows(),
  );
}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
