import { toCents } from "./exact.js";
import type { CsvRow, ReferenceRequest } from "./model-types.js";

const EXPOSURE_COLUMN = { Revenues: "revenues", Employees: "employees", "Market Cap": "market_cap" } as const;

/** Some requested code equals the first 2 (or 3) digits of the company's NAICS code. */
function naicsMatches(company: CsvRow, codes: readonly string[]): boolean {
  const naics = company.naics ?? "";
  if (naics === "") return false;
  return codes.some((code) => naics.length >= code.length && naics.slice(0, code.length) === code);
}

/** The company's exposure of the requested type is known and low <= value <= high. */
function exposureMatches(company: CsvRow, request: ReferenceRequest): boolean {
  const text = company[EXPOSURE_COLUMN[request.exposureType]] ?? "";
  if (text === "") return false;
  const value = toCents(text);
  return toCents(request.exposureRangeLow) <= value && value <= toCents(request.exposureRangeHigh);
}

/** The list is empty or holds `All`, or it holds the company's code; case-insensitive. */
function organizationMatches(company: CsvRow, types: readonly string[]): boolean {
  const wanted = types.map((type) => type.toUpperCase());
  if (wanted.length === 0 || wanted.includes("ALL")) return true;
  return wanted.includes((company.organization_type ?? "").toUpperCase());
}

/** A company matches the peer group (SEMANTICS.md section 1). */
export function companyMatches(company: CsvRow, request: ReferenceRequest): boolean {
  return (
    naicsMatches(company, request.naics) &&
    exposureMatches(company, request) &&
    organizationMatches(company, request.organizationType)
  );
}

/** The ids of the matching companies. */
export function matchingCompanyIds(companies: readonly CsvRow[], request: ReferenceRequest): Set<string> {
  const ids = new Set<string>();
  for (const company of companies) {
    if (companyMatches(company, request)) ids.add(String(BigInt(company.company_id ?? "")));
  }
  return ids;
}

/**
 * A program or loss event row belongs to a matching company, has the requested
 * coverage, and its LOB is in the list (empty, or holding 0, means every LOB).
 */
export function rowInPeerGroup(row: CsvRow, companyIds: Set<string>, request: ReferenceRequest): boolean {
  if (!companyIds.has(String(BigInt(row.company_id ?? "")))) return false;
  if (Number(row.coverage_id) !== request.coverageId) return false;
  const lobs = request.lineOfBusinessId;
  if (lobs.length === 0 || lobs.includes(0)) return true;
  return lobs.includes(Number(row.line_of_business_id));
}
