import type { Company, ReferenceData } from "../api/types.js";
import { EXPOSURE_TYPES, type ExposureType, type PeerGroup } from "../state/peer-group.js";

/** Peers are companies from half to twice the client's size: a common benchmarking band. */
const RANGE_FACTOR = 2;

export const exposureOf = (company: Company, type: ExposureType): number | null =>
  type === "Revenues" ? company.revenues : type === "Employees" ? company.numberOfEmployees : company.marketCap;

/** The exposure range around a company's own figure of that type: half to twice it, rounded as a broker would type it. */
export function rangeAround(value: number): { exposureRangeLow: string; exposureRangeHigh: string } {
  return {
    exposureRangeLow: String(roundSignificant(value / RANGE_FACTOR, "down")),
    exposureRangeHigh: String(roundSignificant(value * RANGE_FACTOR, "up")),
  };
}

/** Rounds to 2 significant digits, down or up, so the range reads like a broker would type it. */
function roundSignificant(value: number, direction: "down" | "up"): number {
  if (value <= 0) return 0;
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  return (direction === "down" ? Math.floor(value / scale) : Math.ceil(value / scale)) * scale;
}

/**
 * What choosing a company fills in (issue 16): its NAICS sector, an exposure range around
 * its size, its organization type, and a coverage when none is chosen yet, so the group
 * can be asked for at once. What the company lacks is cleared, not left from the company
 * chosen before: a group built around this company must not carry another one's sector or size.
 */
export function prefillFromCompany(
  company: Company,
  group: PeerGroup,
  reference: ReferenceData | null,
): Partial<PeerGroup> {
  const patch: Partial<PeerGroup> = { companyId: String(company.id) };
  // The 2-digit sector, not the subsector: a first group wide enough to show figures (and
  // to pass the disclosure rule); the broker narrows it with the subsector picker.
  const naics = company.naics2 ?? company.naics3;
  patch.naics = naics === null ? [] : [String(naics)];
  // Keep the broker's exposure type when the company has that figure; else the first it has.
  const types = [group.exposureType, ...EXPOSURE_TYPES.filter((t) => t !== group.exposureType)];
  const type = types.find((t) => exposureOf(company, t) !== null);
  if (type) {
    const value = exposureOf(company, type)!;
    patch.exposureType = type;
    Object.assign(patch, rangeAround(value));
  } else {
    patch.exposureRangeLow = "";
    patch.exposureRangeHigh = "";
  }
  patch.organizationType = company.organizationType ? [company.organizationType] : [];
  const firstCoverage = reference?.coverages[0];
  if (group.coverageId === "" && firstCoverage) patch.coverageId = String(firstCoverage.coverageId);
  return patch;
}
