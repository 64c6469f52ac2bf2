import path from "node:path";
import type { Calendar } from "./calendar.js";
import type { CompanyBook } from "./write-companies.js";
import { COVERAGES, type CoverageSpec, type LineOfBusinessSpec, type LossKindSpec } from "./coverages.js";
import { csvField } from "./csv-text.js";
import type { Random } from "./random.js";
import { createWeightedIndex, createWeightedPick } from "./weighted.js";
import { writeCsvFile } from "./write-csv-file.js";

/** Days back from the as-of date over which losses happen: about fifteen years. */
export const LOSS_DAYS = 5479;
const RECENT_DAYS = 730;

interface StatusSpec {
  readonly status: string;
  readonly weight: number;
  readonly phrase: string;
  /** Share of events of this status with nothing paid. */
  readonly zeroShare: number;
}

// Recent claims are mostly still open; old ones have mostly resolved.
const RECENT_STATUSES: readonly StatusSpec[] = [
  { status: "Pending", weight: 55, phrase: "discovery is ongoing", zeroShare: 0.35 },
  { status: "Settled", weight: 18, phrase: "settled at mediation", zeroShare: 0 },
  { status: "Dismissed", weight: 15, phrase: "dismissed with prejudice", zeroShare: 0.65 },
  { status: "Closed", weight: 7, phrase: "file closed", zeroShare: 0.3 },
  { status: "Judgment", weight: 3, phrase: "judgment entered after trial", zeroShare: 0 },
  { status: "Under Appeal", weight: 2, phrase: "on appeal to the circuit court", zeroShare: 0.2 },
];
const OLDER_WEIGHTS: Record<string, number> = {
  Pending: 4,
  Settled: 42,
  Dismissed: 25,
  Closed: 20,
  Judgment: 7,
  "Under Appeal": 2,
};
const OLDER_STATUSES: readonly StatusSpec[] = RECENT_STATUSES.map((spec) => ({
  ...spec,
  weight: OLDER_WEIGHTS[spec.status] as number,
}));

/** Writes losses.csv with ids 1..count over the companies of `book`. */
export async function writeLosses(
  dir: string,
  count: number,
  book: CompanyBook,
  calendar: Calendar,
  random: Random,
): Promise<number> {
  if (count > 0 && book.count === 0) throw new RangeError("losses need at least one company");
  // Large companies draw far more claims than small ones (securities suits above all).
  const weights = new Float64Array(book.count);
  for (let i = 0; i < book.count; i++) {
    const revenue = book.revenues[i] as number;
    weights[i] = Math.sqrt(Number.isNaN(revenue) ? 20e6 : revenue);
  }
  const pickCompany = createWeightedIndex(weights);
  const pickCoverage = createWeightedPick(COVERAGES.map((coverage) => ({ coverage, weight: coverage.lossWeight })));
  const pickers = new Map(
    COVERAGES.map((coverage) => [
      coverage,
      { line: createWeightedPick(coverage.lines), kind: createWeightedPick(coverage.losses) },
    ]),
  );
  const pickRecent = createWeightedPick(RECENT_STATUSES);
  const pickOlder = createWeightedPick(OLDER_STATUSES);
  const lastDay = Math.min(LOSS_DAYS, calendar.days) - 1;

  const timeOfDay = (): string => `T${pad(random.int(0, 23))}:${pad(random.int(0, 59))}:${pad(random.int(0, 59))}`;

  function* rows(): Generator<string> {
    for (let i = 0; i < count; i++) {
      const company = pickCompany(random.next());
      const { coverage } = pickCoverage(random.next());
      const pick = pickers.get(coverage) as {
        line: (u: number) => LineOfBusinessSpec;
        kind: (u: number) => LossKindSpec;
      };
      const line = pick.line(random.next());
      const kind = pick.kind(random.next());

      // The filing comes at least a day after the accident, and never after the as-of date.
      const accidentKnown = !random.chance(0.12);
      let filingBack: number;
      let accident = "";
      if (accidentKnown) {
        const accidentBack = 1 + Math.floor((lastDay - 1) * Math.pow(random.next(), 1.3));
        const lag = 1 + Math.floor(-Math.log(1 - random.next()) * 240);
        // A lag that would pass the as-of date is drawn again within the time left,
        // so recent accidents do not pile their filings up on the as-of date itself.
        filingBack = lag <= accidentBack ? accidentBack - lag : random.int(0, accidentBack - 1);
        accident = calendar.date(accidentBack) + (random.chance(0.2) ? timeOfDay() : "");
      } else {
        filingBack = Math.floor(lastDay * Math.pow(random.next(), 1.3));
      }
      const filing = calendar.date(filingBack) + (random.chance(0.25) ? timeOfDay() : "");

      const status = (filingBack < RECENT_DAYS ? pickRecent : pickOlder)(random.next());
      const amount = lossAmount(coverage, status, random);
      const description = describe(kind, status, coverage, amount, calendar.date(filingBack), random);

      yield (
        `${i + 1},${company + 1},${coverage.id},${line.id},${csvField(kind.category)},${csvField(kind.type)},` +
        `${accident},${filing},${csvField(status.status)},${amount},${csvField(description)}`
      );
    }
  }

  return writeCsvFile(
    path.join(dir, "losses.csv"),
    [
      "loss_event_id",
      "company_id",
      "coverage_id",
      "line_of_business_id",
      "loss_category",
      "loss_type",
      "accident_date",
      "filing_date",
      "status",
      "total_amount",
      "description",
    ],
    rows(),
  );
}

/** Whole dollars, heavily skewed: mostly 10K to 10M, with a tail into the billions. */
function lossAmount(coverage: CoverageSpec, status: StatusSpec, random: Random): number {
  if (random.chance(status.zeroShare)) return 0;
  const median = status.status === "Dismissed" ? 120_000 : coverage.lossMedian;
  const amount = Math.min(5e9, random.logNormal(Math.log(median), status.status === "Dismissed" ? 1 : 1.7));
  return random.chance(0.55) ? Math.round(amount / 1000) * 1000 : Math.round(amount);
}

/** Free text as a claims handler writes it: sometimes nothing, sometimes with commas, quotes or line breaks. */
function describe(
  kind: LossKindSpec,
  status: StatusSpec,
  coverage: CoverageSpec,
  amount: number,
  filed: string,
  random: Random,
): string {
  const u = random.next();
  if (u < 0.15) return "";
  if (u < 0.35) return `${capitalize(kind.allegation)}.`;
  if (u < 0.6) return `Plaintiffs alleged that ${kind.allegation}; ${status.phrase}.`;
  if (u < 0.8)
    return `Notice received ${filed}. Alleged that ${kind.allegation}, with damages of $${withThousands(amount)} reported.`;
  if (u < 0.92) return `Initial notice: ${kind.allegation}.\nUpdate: ${status.phrase}.`;
  return `Captioned "In re ${kind.category} Litigation No. ${random.int(1, 999)}" under the ${coverage.name} policy; ${status.phrase}.`;
}

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
