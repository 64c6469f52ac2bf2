import type { Coverage, ReferenceData } from "../api/types.js";

/**
 * Every name the console shows for an id or code (NAICS, coverage, line of business,
 * organization type), from the reference data, with one fallback wording for an id
 * the reference data lacks (or before it has loaded).
 */

/**
 * 2022 NAICS sectors whose codes span several 2-digit values: Manufacturing (31-33),
 * Retail Trade (44-45), Transportation and Warehousing (48-49). The reference data
 * lists each value with the sector's title, so the label says which part it is.
 */
const SPLIT_SECTORS: Readonly<Record<string, string>> = {
  "31": "31-33",
  "32": "31-33",
  "33": "31-33",
  "44": "44-45",
  "45": "44-45",
  "48": "48-49",
  "49": "48-49",
};

/** The title of a 2- or 3-digit code, when the reference data has one. */
export function naicsName(reference: ReferenceData | null, code: string): string | null {
  for (const sector of reference?.naicsSectors ?? []) {
    if (sector.code === code) return sector.name;
    const sub = sector.subsectors.find((s) => s.code === code);
    if (sub) return sub.name;
  }
  return null;
}

/** True when the reference data lists the code as a sector or a subsector (true before it has loaded: the API checks again). */
export function isKnownNaics(reference: ReferenceData | null, code: string): boolean {
  if (!reference) return true;
  return reference.naicsSectors.some(
    (sector) => sector.code === code || sector.subsectors.some((s) => s.code === code),
  );
}

/** A code with its title, everywhere the same: `52 Finance and Insurance`, `32 Manufacturing (part of 31-33)`. */
export function naicsLabel(reference: ReferenceData | null, code: string): string {
  const name = naicsName(reference, code);
  const span = SPLIT_SECTORS[code];
  return [code, name, span ? `(part of ${span})` : null].filter((part) => part !== null && part !== "").join(" ");
}

export function coverageOf(reference: ReferenceData | null, coverageId: string): Coverage | undefined {
  return reference?.coverages.find((c) => String(c.coverageId) === coverageId);
}

export function coverageName(reference: ReferenceData | null, coverageId: string): string {
  return coverageOf(reference, coverageId)?.name ?? `Coverage ${coverageId}`;
}

export function lineOfBusinessName(reference: ReferenceData | null, coverageId: string, lobId: string): string {
  return (
    coverageOf(reference, coverageId)?.linesOfBusiness.find((l) => String(l.lineOfBusinessId) === lobId)?.name ??
    `Line of business ${lobId}`
  );
}

/**
 * Names for the organization type codes of the data (DATA-FORMAT.md: PUB, PRV, PSB, NFP),
 * for the codes the reference data answers without a name: a broker reading "NFP" or
 * "PSB" on a client's report needs the words (issue 27). PUB and PRV are the spec's own
 * (2.1); NFP is the industry's not-for-profit and PSB its public sector body (the data's
 * PSB companies are utilities, agencies and the like).
 */
const ORGANIZATION_TYPE_NAMES: Readonly<Record<string, string>> = {
  PUB: "Public",
  PRV: "Private",
  NFP: "Not-for-profit",
  PSB: "Public sector body",
};

/** The codes the data uses, for when the reference data is not at hand. */
const KNOWN_ORGANIZATION_TYPES = Object.keys(ORGANIZATION_TYPE_NAMES).map((code) => ({ code, name: null }));

/** The organization types to offer, each with a name: the reference data's, or the known codes when it is not at hand. */
export function organizationTypes(reference: ReferenceData | null): readonly { code: string; name: string | null }[] {
  return (reference?.organizationTypes ?? KNOWN_ORGANIZATION_TYPES).map((t) => ({
    code: t.code,
    name: t.name ?? ORGANIZATION_TYPE_NAMES[t.code.toUpperCase()] ?? null,
  }));
}

/** Organization type codes compare case-insensitively, as the API reads them. */
export const sameOrganizationType = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function organizationTypeName(reference: ReferenceData | null, code: string): string {
  return organizationTypes(reference).find((t) => sameOrganizationType(t.code, code))?.name ?? code;
}
