import type { Company, ReferenceData } from "../api/types.js";
import { compactMoney, count } from "../figures/format.js";
import { naicsLabel, organizationTypeName } from "../reference/reference-names.js";

/**
 * What tells similar names apart in the search list (issue 27): the company's NAICS sector,
 * its size and its organization type, from its record (the search rows carry only the type).
 */
export function companyHitMeta(company: Company, reference: ReferenceData | null): string {
  const sector = company.naics3 ?? company.naics2;
  const size =
    company.revenues !== null
      ? `revenues ${compactMoney(company.revenues)}`
      : company.numberOfEmployees !== null
        ? `${count(company.numberOfEmployees)} employees`
        : company.marketCap !== null
          ? `market cap ${compactMoney(company.marketCap)}`
          : "size unknown";
  return [
    sector === null ? "no NAICS code" : `NAICS ${naicsLabel(reference, String(sector))}`,
    size,
    organizationTypeName(reference, company.organizationType),
  ].join(" · ");
}
