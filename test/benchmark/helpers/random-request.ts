import { Decimal } from "decimal.js";
import type { CsvRow, ExposureType, ReferenceDataset, ReferenceRequest } from "../reference/model-types.js";
import { inWindow, subtractMonths, timeWindow } from "../reference/time-window.js";
import type { SeededRandom } from "../../helpers/seeded-random.js";

/** The data a request is drawn from: the reference rows plus the LOBs of each coverage. */
export interface DrawSource {
  dataset: ReferenceDataset;
  linesOfBusiness: readonly CsvRow[];
}

const EXPOSURE_COLUMNS: Record<ExposureType, string> = {
  Revenues: "revenues",
  Employees: "employees",
  "Market Cap": "market_cap",
};
const BAND_EDGES = ["100000", "1000000", "1000000000", "1000", "10000000", "25000000", "2500000", "750000"];

/** Decimal text with at most 2 decimals (rounded half away from zero), no exponent. */
function cents(text: string): string {
  return new Decimal(text).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
}

function randomAmount(random: SeededRandom): string {
  const digits = 1 + random.int(10);
  const whole = String(Math.floor(random.next() * 10 ** digits));
  return random.chance(0.5) ? whole : `${whole}.${String(random.int(100)).padStart(2, "0")}`;
}

/** A value of `column` of some row, or null when the drawn row has none. */
function sampleColumn(rows: readonly CsvRow[], column: string, random: SeededRandom): string | null {
  if (rows.length === 0) return null;
  const text = random.pick(rows)[column] ?? "";
  return text === "" ? null : cents(text);
}

function drawAmount(rows: readonly CsvRow[], column: string, random: SeededRandom): string | null {
  const u = random.next();
  if (u < 0.25) return null;
  if (u < 0.35) return "0";
  if (u < 0.65) return sampleColumn(rows, column, random) ?? "0";
  if (u < 0.75) return random.pick(BAND_EDGES);
  return randomAmount(random);
}

function drawExposureRange(
  source: DrawSource,
  type: ExposureType,
  anchor: CsvRow,
  random: SeededRandom,
): [string, string] {
  const column = EXPOSURE_COLUMNS[type];
  const known = source.dataset.companies
    .map((company) => company[column] ?? "")
    .filter((text) => text !== "")
    .map(cents)
    .sort((a, b) => new Decimal(a).comparedTo(new Decimal(b)));
  const own = anchor[column] ?? "";
  const u = random.next();
  if (known.length === 0 || u < 0.15) return ["0", "1000000000000000"];
  if (own !== "") {
    const value = new Decimal(cents(own));
    if (u < 0.25) return [value.toFixed(), value.toFixed()]; // both ends inclusive
    if (u < 0.75) {
      // a range around the anchor's own value, its ends often other companies' values
      const below = known.filter((text) => new Decimal(text).lessThanOrEqualTo(value));
      const above = known.filter((text) => new Decimal(text).greaterThanOrEqualTo(value));
      const low = random.chance(0.8) ? random.pick(below) : value.toFixed();
      const high = random.chance(0.8) ? random.pick(above) : value.toFixed();
      return random.chance(0.2) ? [low, new Decimal(high).plus("0.5").toFixed()] : [low, high];
    }
  }
  if (u < 0.85) return ["0", random.pick(known)];
  const a = random.int(known.length);
  const b = random.int(known.length);
  return [known[Math.min(a, b)] as string, known[Math.max(a, b)] as string];
}

function drawOrganizationTypes(anchor: CsvRow, random: SeededRandom): string[] {
  const own = anchor.organization_type ?? "PRV";
  const u = random.next();
  if (u < 0.45) return random.pick([[], ["All"], ["all"], ["All", "PRV"]]);
  if (u < 0.75) return random.pick([[own.toLowerCase()], [own.toUpperCase()], [own.toUpperCase(), "PUB"]]);
  return random.pick([["psb", "nfp"], ["PRV"], ["xyz"], ["Pub", "prv"]]);
}

function drawTrailing(random: SeededRandom, asOf: string, anchorDate: string): [number | null, number | null] {
  const pairs: [number | null, number | null][] = [];
  for (const oldest of [null, 3, 6, 9, 12, 24]) {
    for (const newest of [null, 0, 3, 6, 9, 12]) {
      if ((newest ?? 0) < (oldest ?? 24)) pairs.push([oldest, newest === 0 ? null : newest]);
    }
  }
  // The default window 40% of the time (most real requests send none); else often
  // one that holds the anchor's date, so the peer group is not empty.
  if (random.chance(0.4)) return [null, null];
  const holding = pairs.filter(([oldest, newest]) => inWindow(anchorDate, timeWindow(asOf, oldest, newest)));
  return holding.length > 0 && random.chance(0.6) ? random.pick(holding) : random.pick(pairs);
}

function drawLossYears(
  source: DrawSource,
  random: SeededRandom,
): Pick<ReferenceRequest, "lossYear" | "oldestLossYear" | "newestLossYear"> {
  const years = source.dataset.losses.map((loss) => {
    const accident = loss.accident_date ?? "";
    return Number((accident !== "" ? accident : (loss.filing_date ?? "2020")).slice(0, 4));
  });
  const year = (): number => (years.length > 0 && random.chance(0.8) ? random.pick(years) : 2000 + random.int(30));
  const u = random.next();
  if (u < 0.3) return {};
  if (u < 0.45) return { lossYear: year() };
  // lossYear given: the range is ignored entirely, not even validated (SEMANTICS.md section 3).
  if (u < 0.5) {
    const ignored = random.pick([
      { oldestLossYear: 2030, newestLossYear: 1990 },
      { oldestLossYear: 1700 },
      { newestLossYear: 1800 },
    ]);
    return { lossYear: year(), ...ignored };
  }
  if (u < 0.65) return { oldestLossYear: year() };
  if (u < 0.8) return { newestLossYear: year() };
  const a = year();
  const b = year();
  return a === b
    ? { oldestLossYear: a, newestLossYear: a + 1 }
    : { oldestLossYear: Math.min(a, b), newestLossYear: Math.max(a, b) };
}

/**
 * A random valid request whose peer group is drawn from the data: an anchor program
 * gives the coverage and usually the LOB, its company the NAICS prefix and exposure.
 * Anchors are mostly programs of the default window before `asOf`.
 */
export function drawRequest(source: DrawSource, random: SeededRandom, asOf: string): ReferenceRequest {
  const recentSince = subtractMonths(asOf, 24);
  const { companies, programs, losses } = source.dataset;
  const withNaics = companies.filter((company) => (company.naics ?? "") !== "");
  const companyById = new Map(companies.map((company) => [company.company_id, company]));
  // Mostly an anchor from the last two years, so the default window holds peers.
  const recent = programs.filter((program) => (program.effective_date ?? "") > recentSince);
  const pickAnchor = (): CsvRow =>
    recent.length > 0 && random.chance(0.8) ? random.pick(recent) : random.pick(programs);
  let anchorProgram = pickAnchor();
  let anchor = companyById.get(anchorProgram.company_id ?? "") as CsvRow;
  for (let tries = 0; tries < 20 && (anchor.naics ?? "") === ""; tries++) {
    anchorProgram = pickAnchor();
    anchor = companyById.get(anchorProgram.company_id ?? "") as CsvRow;
  }

  const prefix = (company: CsvRow): string => {
    const naics = company.naics ?? "";
    return naics.length >= 3 && random.chance(0.5) ? naics.slice(0, 3) : naics.slice(0, 2);
  };
  const naics = new Set<string>();
  if ((anchor.naics ?? "") !== "") naics.add(prefix(anchor));
  const extra = random.int(3);
  for (let i = 0; i < extra && withNaics.length > 0; i++) naics.add(prefix(random.pick(withNaics)));
  if (naics.size === 0 || random.chance(0.05)) naics.add(random.pick(["99", "999", "10"]));

  const coverageId = Number(anchorProgram.coverage_id);
  const lines = source.linesOfBusiness
    .filter((line) => Number(line.coverage_id) === coverageId)
    .map((line) => Number(line.line_of_business_id));
  const u = random.next();
  const lineOfBusinessId =
    u < 0.2
      ? [0]
      : u < 0.3
        ? []
        : u < 0.35
          ? [0, Number(anchorProgram.line_of_business_id)] // holding 0: every LOB
          : u < 0.7
            ? [Number(anchorProgram.line_of_business_id)]
            : [...new Set([Number(anchorProgram.line_of_business_id), random.pick(lines)])];

  // Mostly an exposure the anchor company has, so the range can hold it.
  const types: ExposureType[] = ["Revenues", "Revenues", "Employees", "Market Cap"];
  const knownTypes = types.filter((type) => (anchor[EXPOSURE_COLUMNS[type]] ?? "") !== "");
  const exposureType = random.pick(knownTypes.length > 0 && random.chance(0.8) ? knownTypes : types);
  let [exposureRangeLow, exposureRangeHigh] = drawExposureRange(source, exposureType, anchor, random);
  if (random.chance(0.15)) {
    // Bounds are decimals whatever the type: fractional ends around whole employee counts.
    exposureRangeHigh = new Decimal(exposureRangeHigh).plus("0.25").toFixed();
    if (new Decimal(exposureRangeLow).greaterThanOrEqualTo(1))
      exposureRangeLow = new Decimal(exposureRangeLow).minus("0.75").toFixed();
  }

  const coveragePrograms = programs.filter((program) => Number(program.coverage_id) === coverageId);
  const coverageLosses = losses.filter((loss) => Number(loss.coverage_id) === coverageId);
  const [oldestTrailing, newestTrailing] = drawTrailing(random, asOf, anchorProgram.effective_date ?? "");
  const clientLimitDraw = random.next();
  const clientLimit =
    clientLimitDraw < 0.4
      ? null
      : clientLimitDraw < 0.5
        ? "0"
        : clientLimitDraw < 0.75
          ? (sampleColumn(coverageLosses, "total_amount", random) ?? "1000000")
          : randomAmount(random);

  return {
    naics: [...naics],
    coverageId,
    lineOfBusinessId,
    exposureType,
    exposureRangeLow,
    exposureRangeHigh,
    organizationType: drawOrganizationTypes(anchor, random),
    premium: drawAmount(coveragePrograms, "premium", random),
    limit: drawAmount(coveragePrograms, "limit", random),
    retention: drawAmount(coveragePrograms, "retention", random),
    clientLimit,
    oldestTrailing,
    newestTrailing,
    ...drawLossYears(source, random),
    ...drawTrendShape(random),
  };
}

/** A market trend's shape (SEMANTICS.md section 13): often the defaults, never past 120 months. */
function drawTrendShape(random: SeededRandom): { periodMonths: number | null; periods: number | null } {
  const periodMonths = random.chance(0.3) ? null : random.pick([3, 6, 12]);
  const most = Math.min(12, 120 / (periodMonths ?? 12));
  const periods = random.chance(0.3) ? (most >= 5 ? null : most) : 2 + random.int(most - 1);
  return { periodMonths, periods };
}

/**
 * A loss experience's years and limits (SEMANTICS.md section 15): the default, the ends
 * (1 and 20) or any in between; 0 to 3 limits, mostly at a loss amount of the coverage
 * or a cent either side of one, now and then one repeated.
 */
export function drawLossExperienceAsk(
  source: DrawSource,
  coverageId: number,
  random: SeededRandom,
): Pick<ReferenceRequest, "years" | "limits"> {
  const u = random.next();
  const years = u < 0.3 ? null : u < 0.45 ? 1 : u < 0.6 ? 20 : 1 + random.int(20);
  const amounts = source.dataset.losses
    .filter((loss) => Number(loss.coverage_id) === coverageId && (loss.total_amount ?? "0") !== "0")
    .map((loss) => loss.total_amount!);
  const limit = (): string => {
    const v = random.next();
    const at = new Decimal(amounts.length === 0 ? "1" : random.pick(amounts));
    const drawn =
      v < 0.2 ? new Decimal(cents(randomAmount(random))) : v < 0.5 ? at : v < 0.75 ? at.plus("0.01") : at.minus("0.01");
    return drawn.greaterThan(0) ? drawn.toFixed() : "0.01";
  };
  const limits: string[] = [];
  for (let n = random.pick([0, 0, 1, 2, 3, 3]); n > 0; n--)
    limits.push(limits.length > 0 && random.chance(0.2) ? random.pick(limits) : limit());
  return { years, limits: limits.length === 0 && random.chance(0.5) ? null : limits };
}
