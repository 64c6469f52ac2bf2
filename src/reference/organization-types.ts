/**
 * The organization type codes whose meaning the spec states (2.1: "PUB (public), PRV
 * (private)"). Other codes (PSB, NFP, ...) are answered without a name rather than
 * with a guessed one.
 */
const ORGANIZATION_TYPE_NAMES: ReadonlyMap<string, string> = new Map([
  ["PUB", "Public"],
  ["PRV", "Private"],
]);

/** The name of an organization type code, if one is known. */
export function organizationTypeName(code: string): string | undefined {
  return ORGANIZATION_TYPE_NAMES.get(code);
}
