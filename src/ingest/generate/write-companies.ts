import path from "node:path";
import { createCompanyNamer, type OrganizationType } from "./company-names.js";
import { csvField, formatMoney } from "./csv-text.js";
import { NAICS_SECTORS, type NaicsSector } from "./naics-sectors.js";
import type { Random } from "./random.js";
import { createWeightedIndex, createWeightedPick } from "./weighted.js";
import { writeCsvFile } from "./write-csv-file.js";

/** What the program and loss writers need to know about the companies written. */
export interface CompanyBook {
  readonly count: number;
  /** Revenue in dollars by company index (id - 1); NaN where it was left empty. */
  readonly revenues: Float64Array;
}

interface OrganizationProfile {
  readonly type: OrganizationType;
  readonly weight: number;
  /** log-normal revenue: median and spread of ln(dollars). */
  readonly medianRevenue: number;
  readonly sigma: number;
}

// Most companies in a commercial book are private; public companies are fewer but
// much larger, which is what makes revenues span 100K to hundreds of billions.
const PROFILES: readonly OrganizationProfile[] = [
  { type: "PRV", weight: 70, medianRevenue: 12e6, sigma: 1.9 },
  { type: "PUB", weight: 9, medianRevenue: 1.5e9, sigma: 1.8 },
  { type: "NFP", weight: 13, medianRevenue: 8e6, sigma: 1.7 },
  { type: "PSB", weight: 8, medianRevenue: 40e6, sigma: 1.8 },
];

const MIN_REVENUE = 100_000;
const MAX_REVENUE = 600e9;

/** Writes companies.csv with ids 1..count. */
export async function writeCompanies(dir: string, count: number, random: Random): Promise<CompanyBook> {
  const pickProfile = createWeightedPick(PROFILES);
  const pickSector = Object.fromEntries(
    PROFILES.map((profile) => [
      profile.type,
      createWeightedIndex(NAICS_SECTORS.map((sector) => sector.weights[profile.type])),
    ]),
  ) as Record<OrganizationType, (u: number) => number>;
  const nameFor = createCompanyNamer(random);
  const revenues = new Float64Array(count);

  function* rows(): Generator<string> {
    for (let i = 0; i < count; i++) {
      const profile = pickProfile(random.next());
      const sector = NAICS_SECTORS[pickSector[profile.type](random.next())] as NaicsSector;
      const name = nameFor(profile.type, sector.nouns);
      const naics = naicsCode(random.pick(sector.codes), random.next());

      let revenue = random.logNormal(Math.log(profile.medianRevenue), profile.sigma);
      // Reflect the tails back into range rather than piling companies on the bounds.
      if (revenue < MIN_REVENUE) revenue = MIN_REVENUE * (1 + random.next() * 4);
      if (revenue > MAX_REVENUE) revenue = MAX_REVENUE * (0.3 + random.next() * 0.7);
      const revenueKnown = !random.chance(0.03);
      revenues[i] = revenueKnown ? revenue : Number.NaN;

      const employees = random.chance(0.04)
        ? ""
        : String(
            Math.max(
              1,
              Math.round(
                revenueKnown ? revenue / random.logNormal(Math.log(250_000), 0.6) : random.logNormal(Math.log(60), 1.5),
              ),
            ),
          );
      const marketCap =
        profile.type === "PUB" && !random.chance(0.08)
          ? formatMoney(revenue * random.logNormal(Math.log(1.8), 0.9), random.chance(0.2))
          : "";

      yield `${i + 1},${csvField(name)},${profile.type},${naics},${revenueKnown ? revenueText(revenue, random.next()) : ""},${employees},${marketCap}`;
    }
  }

  const written = await writeCsvFile(
    path.join(dir, "companies.csv"),
    ["company_id", "company_name", "organization_type", "naics", "revenues", "employees", "market_cap"],
    rows(),
  );
  return { count: written, revenues };
}

/** Mostly the full 6-digit industry; some companies are only known to 4, 3 or 2 digits, a few not at all. */
function naicsCode(code: string, u: number): string {
  if (u < 0.02) return "";
  if (u < 0.05) return code.slice(0, 2);
  if (u < 0.11) return code.slice(0, 3);
  if (u < 0.17) return code.slice(0, 4);
  return code;
}

/** Revenues as reported: often to the thousand, sometimes to the dollar or the cent. */
function revenueText(revenue: number, u: number): string {
  if (u < 0.3) return formatMoney(revenue, true);
  if (u < 0.55) return formatMoney(revenue, false);
  return String(Math.max(1, Math.round(revenue / 1000)) * 1000);
}
