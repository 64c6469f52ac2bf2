import type { ReferenceData } from "../api/types.js";
import { coverageOf } from "../reference/reference-names.js";
import { hasClientAmounts, type PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";

interface CoverageFieldProps {
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
}

/**
 * A new coverage, its LOBs emptied; the client's amounts remember the coverage they were
 * entered for, so the page can say that a D&O limit is not the client's Cyber limit.
 */
export function coverageChange(group: PeerGroup, coverageId: string): Partial<PeerGroup> {
  const enteredFor = group.amountsCoverageId || group.coverageId;
  const amountsCoverageId = hasClientAmounts(group) && enteredFor !== "" && enteredFor !== coverageId ? enteredFor : "";
  return { coverageId, lineOfBusinessId: [], amountsCoverageId };
}

/**
 * Coverage and its lines of business (each LOB belongs to one coverage: SEMANTICS.md).
 * No LOB ticked means every LOB, the API's "0". Without reference data the ids are typed.
 */
export function CoverageField({ group, update, reference }: CoverageFieldProps) {
  if (!reference) {
    return (
      <fieldset class="field-group">
        <legend>Coverage</legend>
        <div class="field-row">
          <div class="field">
            <label for="coverage-id">Coverage id</label>
            <input
              id="coverage-id"
              type="text"
              inputMode="numeric"
              value={group.coverageId}
              onChange={(e) => update(coverageChange(group, e.currentTarget.value.trim()))}
            />
          </div>
          <div class="field">
            <label for="lob-ids">Line of business ids</label>
            <input
              id="lob-ids"
              type="text"
              value={group.lineOfBusinessId.join(", ")}
              aria-describedby="lob-ids-hint"
              onChange={(e) =>
                update({
                  lineOfBusinessId: e.currentTarget.value
                    .split(",")
                    .map((s) => s.trim())
                    .filter((s) => s !== "" && s !== "0"),
                })
              }
            />
            <p id="lob-ids-hint" class="hint">
              Comma separated; empty for every line.
            </p>
          </div>
        </div>
      </fieldset>
    );
  }
  const coverage = coverageOf(reference, group.coverageId);
  const toggle = (id: string, on: boolean) =>
    update({ lineOfBusinessId: on ? [...group.lineOfBusinessId, id] : group.lineOfBusinessId.filter((x) => x !== id) });
  return (
    <fieldset class="field-group">
      <legend>Coverage</legend>
      <div class="field">
        <label for="coverage-id">Coverage</label>
        <select
          id="coverage-id"
          value={group.coverageId}
          onChange={(e) => update(coverageChange(group, e.currentTarget.value))}
        >
          <option value="">Choose a coverage</option>
          {reference.coverages.map((c) => (
            <option key={c.coverageId} value={String(c.coverageId)}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {coverage && (coverage.linesOfBusiness.length > 0 || group.lineOfBusinessId.length > 0) ? (
        <fieldset class="checks">
          <legend>Lines of business</legend>
          <p class="hint">None ticked: every line of business.</p>
          {[
            ...coverage.linesOfBusiness.map((lob) => ({ id: String(lob.lineOfBusinessId), name: lob.name })),
            // An id from a link that this coverage no longer has still shows, so it can be unticked.
            ...group.lineOfBusinessId
              .filter((id) => !coverage.linesOfBusiness.some((l) => String(l.lineOfBusinessId) === id))
              .map((id) => ({ id, name: `Line of business ${id} (unknown)` })),
          ].map(({ id, name }) => (
            <label key={id} class="check">
              <input
                type="checkbox"
                checked={group.lineOfBusinessId.includes(id)}
                onChange={(e) => toggle(id, e.currentTarget.checked)}
              />
              {name}
            </label>
          ))}
        </fieldset>
      ) : null}
    </fieldset>
  );
}
