import { Decimal } from "../../../src/benchmark/decimal.js";
import { lossExperienceSpan } from "../../../src/benchmark/loss-experience-inputs.js";
import type { LossExperienceSpan } from "../../../src/benchmark/loss-experience-statistics.js";
import type { LossYearFilter } from "../../../src/benchmark/loss-years.js";
import type { PeerGroup } from "../../../src/benchmark/peer-group.js";
import type { SelectedAmounts } from "../../../src/benchmark/peer-engine.js";
import { timeWindow, type TimeWindow } from "../../../src/benchmark/time-window.js";
import { trendPeriods } from "../../../src/benchmark/trend-periods.js";
import type { SeededRandom } from "../../helpers/seeded-random.js";

/** What a random engine call is drawn from: values seen in the data set. */
export interface DrawPool {
  naics: string[];
  coverageIds: number[];
  lineOfBusinessIds: number[];
  organizationTypes: string[];
  /** Exposure and amount values of the data (decimal text). */
  amounts: string[];
  years: number[];
  /** Loss amounts of the data (whole dollars, as text): limits are drawn at them and a cent either side. */
  lossAmounts?: string[];
}

/** A value of the pool, or one cent next to it, or something else entirely. */
function amount(pool: DrawPool, random: SeededRandom): Decimal {
  const u = random.next();
  if (u < 0.1) return new Decimal(0);
  if (u < 0.2) return new Decimal(random.pick(["1e15", "90071992547409.92", "90071992547409.91", "1e20"]));
  const base = new Decimal(random.pick(pool.amounts) || "0");
  if (u < 0.6) return base;
  return Decimal.max(0, base.plus(random.pick(["0.01", "-0.01"])));
}

function some<T>(items: readonly T[], random: SeededRandom, max: number): T[] {
  return [...new Set(Array.from({ length: 1 + random.int(max) }, () => random.pick(items)))];
}

/** A valid peer group as readPeerGroup would produce it (SEMANTICS.md section 1). */
export function drawPeerGroup(pool: DrawPool, random: SeededRandom): PeerGroup {
  const naics = some(
    pool.naics
      .filter(Boolean)
      .flatMap((code) => [code.slice(0, 2), code.slice(0, 3)])
      .filter((c) => c.length >= 2),
    random,
    4,
  );
  if (random.chance(0.1)) naics.push(random.pick(["00", "98", "999"]));
  const [a, b] = [amount(pool, random), amount(pool, random)];
  return {
    naics2: naics.filter((code) => code.length === 2),
    naics3: naics.filter((code) => code.length === 3),
    coverageId: random.chance(0.05) ? 77 : random.pick(pool.coverageIds),
    lineOfBusinessIds: random.chance(0.4) ? [] : some(pool.lineOfBusinessIds, random, 3),
    exposure: random.pick(["revenues", "employees", "market_cap"] as const),
    exposureLow: random.chance(0.3) ? new Decimal(0) : Decimal.min(a, b),
    exposureHigh: random.chance(0.3) ? new Decimal("1e15") : Decimal.max(a, b),
    organizationTypes: random.chance(0.5) ? [] : some([...pool.organizationTypes, "XYZ"], random, 2),
  };
}

export function drawWindow(asOf: string, random: SeededRandom): TimeWindow {
  const trailing = random.pick([
    { oldest: 24, newest: 0 },
    { oldest: 24, newest: 0 },
    { oldest: 12, newest: 0 },
    { oldest: 24, newest: 12 },
    { oldest: 6, newest: 3 },
    { oldest: 3, newest: 0 },
    { oldest: 9, newest: 6 },
  ]);
  return timeWindow(asOf, trailing);
}

/** A market trend's periods (SEMANTICS.md section 13): any valid shape, up to 120 months. */
export function drawTrendPeriods(asOf: string, random: SeededRandom): TimeWindow[] {
  const periodMonths = random.pick([3, 6, 12]);
  const periods = 2 + random.int(Math.min(12, 120 / periodMonths) - 1);
  return trendPeriods(asOf, { periodMonths, periods });
}

export function drawLossYears(pool: DrawPool, random: SeededRandom): LossYearFilter {
  const year = () => (random.chance(0.8) ? random.pick(pool.years) : 1990 + random.int(50));
  const u = random.next();
  if (u < 0.3) return { kind: "any" };
  if (u < 0.5) return { kind: "exact", year: year() };
  if (u < 0.65) return { kind: "range", oldest: year() };
  if (u < 0.8) return { kind: "range", newest: year() };
  const [x, y] = [year(), year()];
  return { kind: "range", oldest: Math.min(x, y), newest: Math.max(x, y) + 1 };
}

export function drawSelected(pool: DrawPool, random: SeededRandom): SelectedAmounts {
  return { limit: amount(pool, random), premium: amount(pool, random), retention: amount(pool, random) };
}

/** A client RPM: one of the data's premium/limit ratios, rounded, or any amount. */
export function drawRpm(pool: DrawPool, random: SeededRandom): Decimal {
  const premium = amount(pool, random);
  const limit = amount(pool, random);
  if (limit.isZero() || random.chance(0.3)) return amount(pool, random);
  return premium.times(1_000_000).div(limit).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/**
 * A loss experience's years (SEMANTICS.md section 15: 1 to 20, the ends often) and 0 to 3
 * limits: at a loss amount or a cent either side of one, or any amount; now and then
 * one repeated.
 */
export function drawLossExperience(
  asOf: string,
  pool: DrawPool,
  random: SeededRandom,
): { span: LossExperienceSpan; limits: Decimal[] } {
  const years = random.chance(0.3) ? random.pick([1, 20]) : 1 + random.int(20);
  const limit = () => {
    const base = new Decimal(random.pick(pool.lossAmounts?.length ? pool.lossAmounts : pool.amounts) || "1");
    const u = random.next();
    const drawn = u < 0.4 ? base : u < 0.6 ? base.plus("0.01") : u < 0.8 ? base.minus("0.01") : amount(pool, random);
    return drawn.isPositive() && !drawn.isZero() ? drawn : new Decimal("0.01");
  };
  const limits: Decimal[] = [];
  for (let i = random.int(4); i > 0; i--) limits.push(limits.length > 0 && random.chance(0.2) ? limits[0]! : limit());
  return { span: lossExperienceSpan(asOf, years), limits };
}
