import type { ReferenceData } from "../api/types.js";
import type { PeerGroup } from "../state/peer-group.js";
import { coverageOf, isKnownNaics, organizationTypes, sameOrganizationType } from "./reference-names.js";

/**
 * The ids in a peer group (a link, often an old one) that the reference data no longer
 * lists: a coverage, a line of business of the chosen coverage, an organization type. The
 * API may still answer (an empty group), so the broker is told rather than left guessing.
 * Nothing is reported before the reference data has loaded.
 */
export function unknownIds(group: PeerGroup, reference: ReferenceData | null): string[] {
  if (!reference) return [];
  const found: string[] = [];
  for (const code of group.naics) if (!isKnownNaics(reference, code)) found.push(`NAICS ${code}`);
  const coverage = coverageOf(reference, group.coverageId);
  if (group.coverageId !== "" && !coverage) found.push(`coverage ${group.coverageId}`);
  if (coverage) {
    for (const id of group.lineOfBusinessId) {
      if (!coverage.linesOfBusiness.some((l) => String(l.lineOfBusinessId) === id))
        found.push(`line of business ${id} (of ${coverage.name})`);
    }
  }
  const types = organizationTypes(reference);
  for (const code of group.organizationType) {
    if (!types.some((t) => sameOrganizationType(t.code, code))) found.push(`organization type ${code}`);
  }
  return found;
}
