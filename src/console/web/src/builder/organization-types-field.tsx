import type { ReferenceData } from "../api/types.js";
import { organizationTypes, sameOrganizationType } from "../reference/reference-names.js";
import type { PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";

/** Organization types, several at once; none ticked is the API's "All". */
export function OrganizationTypesField({
  group,
  update,
  reference,
}: {
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
}) {
  const types = organizationTypes(reference);
  // A code from a shared link that the reference data does not list still shows, so it can be unticked.
  const extra = group.organizationType.filter((code) => !types.some((t) => sameOrganizationType(t.code, code)));
  const all = [...types, ...extra.map((code) => ({ code, name: null }))];
  const toggle = (code: string, on: boolean) =>
    update({
      organizationType: on
        ? [...group.organizationType, code]
        : group.organizationType.filter((c) => !sameOrganizationType(c, code)),
    });
  return (
    <fieldset class="field-group checks">
      <legend>Organization types</legend>
      <p class="hint">None ticked: all types.</p>
      {all.map((t) => (
        <label key={t.code} class="check">
          <input
            type="checkbox"
            checked={group.organizationType.some((c) => sameOrganizationType(c, t.code))}
            onChange={(e) => toggle(t.code, e.currentTarget.checked)}
          />
          {t.name ? `${t.name} (${t.code})` : t.code}
        </label>
      ))}
    </fieldset>
  );
}
