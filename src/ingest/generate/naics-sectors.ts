/**
 * NAICS sectors (the real 2-digit codes, with 31-33, 44-45 and 48-49 spread over
 * their parts) with a few real 6-digit industries each, and nouns that make a
 * company name fit its industry. A company's shorter codes are prefixes of these,
 * so 3- and 4-digit codes are real subsectors and industry groups too.
 *
 * Weights are per organization type: public-sector bodies cluster in public
 * administration, utilities and education; not-for-profits in health, education and
 * civic organizations.
 */
export interface NaicsSector {
  readonly codes: readonly string[];
  readonly nouns: readonly string[];
  /** Relative weights for PRV, PUB, NFP, PSB companies. */
  readonly weights: { readonly PRV: number; readonly PUB: number; readonly NFP: number; readonly PSB: number };
}

export const NAICS_SECTORS: readonly NaicsSector[] = [
  {
    codes: ["111110", "111998", "112111", "113310", "114111"],
    nouns: ["Farms", "Agriculture", "Harvest", "Timber", "Ranch"],
    weights: { PRV: 2, PUB: 1, NFP: 1, PSB: 0.5 },
  },
  {
    codes: ["211120", "212114", "212230", "213111"],
    nouns: ["Energy", "Resources", "Mining", "Petroleum", "Minerals"],
    weights: { PRV: 1.5, PUB: 4, NFP: 0, PSB: 0.3 },
  },
  {
    codes: ["221112", "221114", "221210", "221310"],
    nouns: ["Power", "Electric", "Gas", "Water", "Utilities"],
    weights: { PRV: 1, PUB: 4, NFP: 1, PSB: 12 },
  },
  {
    codes: ["236115", "236220", "237310", "238210", "238220"],
    nouns: ["Construction", "Builders", "Contracting", "Paving", "Mechanical"],
    weights: { PRV: 10, PUB: 2, NFP: 0.5, PSB: 1 },
  },
  {
    codes: ["311111", "311421", "312120", "313210", "314110"],
    nouns: ["Foods", "Brewing", "Textiles", "Mills", "Packing"],
    weights: { PRV: 3, PUB: 4, NFP: 0, PSB: 0 },
  },
  {
    codes: ["325211", "325412", "326199", "327310", "332710"],
    nouns: ["Chemicals", "Pharmaceuticals", "Plastics", "Materials", "Machining"],
    weights: { PRV: 4, PUB: 6, NFP: 0, PSB: 0 },
  },
  {
    codes: ["333111", "334413", "335311", "336111", "336411", "339112"],
    nouns: ["Manufacturing", "Semiconductor", "Aerospace", "Motors", "Instruments", "Industries"],
    weights: { PRV: 5, PUB: 9, NFP: 0, PSB: 0 },
  },
  {
    codes: ["423430", "423450", "424210", "424410", "425120"],
    nouns: ["Distribution", "Supply", "Wholesale", "Trading", "Imports"],
    weights: { PRV: 7, PUB: 3, NFP: 0, PSB: 0 },
  },
  {
    codes: ["441110", "444110", "445110"],
    nouns: ["Motors", "Home Centers", "Markets", "Grocers"],
    weights: { PRV: 4, PUB: 2, NFP: 0.5, PSB: 0 },
  },
  {
    codes: ["449110", "455110", "456110"],
    nouns: ["Stores", "Retail", "Pharmacy", "Outfitters"],
    weights: { PRV: 4, PUB: 3, NFP: 0.5, PSB: 0 },
  },
  {
    codes: ["481111", "482111", "484121", "488510"],
    nouns: ["Airlines", "Railroad", "Trucking", "Freight", "Logistics"],
    weights: { PRV: 2.5, PUB: 2, NFP: 0.2, PSB: 2 },
  },
  {
    codes: ["492110", "493110"],
    nouns: ["Couriers", "Warehousing", "Logistics"],
    weights: { PRV: 1.5, PUB: 1, NFP: 0, PSB: 0.5 },
  },
  {
    codes: ["512110", "513210", "517111", "518210", "519290"],
    nouns: ["Software", "Media", "Telecom", "Data", "Networks", "Studios"],
    weights: { PRV: 6, PUB: 12, NFP: 1, PSB: 0.5 },
  },
  {
    codes: ["522110", "522130", "523150", "523940", "524113", "524126", "524210", "525990"],
    nouns: ["Bancorp", "Financial", "Capital", "Trust", "Insurance", "Asset Management", "Credit Union"],
    weights: { PRV: 8, PUB: 16, NFP: 2, PSB: 1 },
  },
  {
    codes: ["531110", "531120", "531210", "531390", "532111"],
    nouns: ["Realty", "Properties", "Real Estate", "Leasing"],
    weights: { PRV: 6, PUB: 5, NFP: 1, PSB: 1 },
  },
  {
    codes: ["541110", "541211", "541330", "541511", "541512", "541611", "541714", "541810"],
    nouns: ["Consulting", "Associates", "Engineering", "Technologies", "Advisors", "Partners", "Biosciences"],
    weights: { PRV: 12, PUB: 6, NFP: 2, PSB: 0.5 },
  },
  {
    codes: ["551111", "551112"],
    nouns: ["Holdings", "Group", "Enterprises"],
    weights: { PRV: 2, PUB: 4, NFP: 0, PSB: 0 },
  },
  {
    codes: ["561110", "561311", "561320", "561612", "562111"],
    nouns: ["Services", "Staffing", "Security", "Waste Services", "Solutions"],
    weights: { PRV: 6, PUB: 3, NFP: 0.5, PSB: 1 },
  },
  {
    codes: ["611110", "611310", "611430"],
    nouns: ["Academy", "College", "Learning", "Schools"],
    weights: { PRV: 2, PUB: 0.5, NFP: 15, PSB: 10 },
  },
  {
    codes: ["621111", "621210", "622110", "623110", "624410"],
    nouns: ["Health", "Medical Group", "Hospital", "Care", "Clinics"],
    weights: { PRV: 8, PUB: 4, NFP: 30, PSB: 6 },
  },
  {
    codes: ["711211", "713110", "713940"],
    nouns: ["Entertainment", "Sports", "Fitness", "Parks"],
    weights: { PRV: 2, PUB: 1, NFP: 5, PSB: 2 },
  },
  {
    codes: ["721110", "722511", "722513"],
    nouns: ["Hotels", "Hospitality", "Restaurants", "Kitchen"],
    weights: { PRV: 5, PUB: 2, NFP: 0.5, PSB: 0 },
  },
  {
    codes: ["811111", "812112", "813110", "813211", "813910"],
    nouns: ["Services", "Foundation", "Association", "Society"],
    weights: { PRV: 3, PUB: 0.3, NFP: 30, PSB: 1 },
  },
  {
    codes: ["921110", "921130", "922120", "923110"],
    nouns: ["Authority", "District", "Commission", "Department"],
    weights: { PRV: 0, PUB: 0, NFP: 1, PSB: 60 },
  },
];
