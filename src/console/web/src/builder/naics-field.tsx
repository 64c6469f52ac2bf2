import { useState } from "preact/hooks";
import type { ReferenceData } from "../api/types.js";
import { isKnownNaics, naicsLabel } from "../reference/reference-names.js";
import type { PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";

interface NaicsFieldProps {
  group: PeerGroup;
  update: UpdatePeerGroup;
  reference: ReferenceData | null;
}

/**
 * NAICS codes: a sector or subsector picked from the reference data, or codes typed in
 * (2 or 3 digits: SEMANTICS.md 1). A company matches when any code matches, so each
 * added code widens the group.
 */
export function NaicsField({ group, update, reference }: NaicsFieldProps) {
  const [sector, setSector] = useState("");
  const [subsector, setSubsector] = useState("");
  const [typed, setTyped] = useState("");
  const [typedError, setTypedError] = useState("");

  const add = (codes: string[]) => {
    const next = [...group.naics];
    for (const code of codes) if (!next.includes(code)) next.push(code);
    update({ naics: next });
  };
  const chosenSector = reference?.naicsSectors.find((s) => s.code === sector);

  return (
    <fieldset class="field-group">
      <legend>Industry (NAICS)</legend>
      {group.naics.length > 0 ? (
        <ul class="chips" aria-label="Chosen NAICS codes">
          {group.naics.map((code) => {
            return (
              <li key={code} class="chip">
                <span>{naicsLabel(reference, code)}</span>
                <button
                  type="button"
                  class="chip-remove"
                  aria-label={`Remove NAICS ${code}`}
                  onClick={() => update({ naics: group.naics.filter((c) => c !== code) })}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="hint">No code yet: choose a company, or add a sector.</p>
      )}
      {reference && reference.naicsSectors.length > 0 ? (
        // One above the other: side by side in the sidebar, a sector's name was cut (issue 50).
        <div class="field-stack">
          <div class="field">
            <label for="naics-sector">Sector</label>
            <select
              id="naics-sector"
              value={sector}
              onChange={(e) => {
                setSector(e.currentTarget.value);
                setSubsector("");
              }}
            >
              <option value="">Choose a sector</option>
              {reference.naicsSectors.map((s) => (
                <option key={s.code} value={s.code}>
                  {naicsLabel(reference, s.code)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="naics-subsector">Subsector</label>
            <select
              id="naics-subsector"
              value={subsector}
              disabled={!chosenSector}
              onChange={(e) => setSubsector(e.currentTarget.value)}
            >
              <option value="">The whole sector</option>
              {chosenSector?.subsectors.map((s) => (
                <option key={s.code} value={s.code}>
                  {naicsLabel(reference, s.code)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            class="button field-button"
            disabled={sector === ""}
            onClick={() => add([subsector || sector])}
          >
            Add
          </button>
        </div>
      ) : null}
      <div class="field-row">
        <div class="field">
          <label for="naics-codes">Other codes</label>
          <input
            id="naics-codes"
            type="text"
            inputMode="numeric"
            placeholder="e.g. 52, 541"
            value={typed}
            aria-invalid={typedError !== ""}
            aria-describedby="naics-codes-note"
            data-testid="naics-codes"
            onInput={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                e.currentTarget.form?.querySelector<HTMLButtonElement>("#naics-add")?.click();
              }
            }}
          />
          <p id="naics-codes-note" class={typedError ? "hint error" : "hint"} data-testid="naics-codes-note">
            {typedError || "2- or 3-digit codes, comma separated."}
          </p>
        </div>
        <button
          id="naics-add"
          type="button"
          class="button field-button"
          onClick={() => {
            const codes = typed.split(/[\s,;]+/).filter((c) => c !== "");
            const bad = codes.filter((c) => !/^\d{2,3}$/.test(c));
            if (bad.length > 0) {
              setTypedError(`Not a 2- or 3-digit code: ${bad.join(", ")}`);
              return;
            }
            // Checked as added (issue 27): a code no company can have would give an empty group without a word.
            const unknown = codes.filter((c) => !isKnownNaics(reference, c));
            if (unknown.length > 0) {
              setTypedError(`Not a NAICS sector or subsector of the reference data: ${unknown.join(", ")}`);
              return;
            }
            setTypedError("");
            setTyped("");
            add(codes);
          }}
        >
          Add codes
        </button>
      </div>
    </fieldset>
  );
}
