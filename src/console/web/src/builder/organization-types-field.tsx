import type { ReferenceData } from "../api/types";
import type { PeerGroup } from "../state/peer-group";
import type { UpdatePeerGroup } from "../state/use-peer-group";

/** The codes the spec names (2.1), for when the reference data is not at hand. */
const KNOWN_TYPES = [
  { code: "PUB", name: "Public" },
  { code: "PRV", name: "Private" },
  { code: "PSB", name: null },
];

/** Organization types, several at once; none ticked is the API's "All". */
export function OrganizationTypesField({ group, update, reference }: { group: PeerGroup; update: UpdatePeerGroup; reference: ReferenceData | null }) {
  const types = reference?.organizationTypes ?? KNOWN_TYPES;
  // A code from a shared link that the reference data does not list still shows, so it can be unticked.
  const extra = group.organizationType.filter((code) => !types.some((t) => t.code.toLowerCase() === code.toLowerCase()));
  const all = [...types, ...extra.map((code) => ({ code, name: null }))];
  const toggle = (code: string, on: boolean) =>
    update({ organizationType: on ? [...group.organizationType, code] : group.organizationType.filter((c) => c.toLowerCase() !== code.toLowerCase()) });
  return (
    <fieldset class="field-group checks">
      <legend>Organization types</legend>
      <p class="hint">None ticked: all types.</p>
      {all.map((t) => (
        <label key={t.code} class="check">
          <input type="checkbox" checked={group.organizationType.some((c) => c.toLowerCase() === t.code.toLowerCase())} onChange={(e) => toggle(t.code, e.currentTarget.checked)} />
          {t.name ? `${t.name} (${t.code})` : t.code}
        </label>
      ))}
    </fieldset>
  );
}
