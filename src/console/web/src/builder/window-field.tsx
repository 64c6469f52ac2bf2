import { NEWEST_TRAILING, OLDEST_TRAILING, type PeerGroup } from "../state/peer-group.js";
import type { UpdatePeerGroup } from "../state/use-peer-group.js";

/**
 * The trailing window of spec 2.2: programs effective between `oldestTrailing` and
 * `newestTrailing` months before the as-of date; newest must be less than oldest.
 */
export function WindowField({ group, update }: { group: PeerGroup; update: UpdatePeerGroup }) {
  const invalid = group.newestTrailing >= group.oldestTrailing;
  return (
    <fieldset class="field-group">
      <legend>Program window</legend>
      <div class="field-row">
        <div class="field">
          <label for="oldest-trailing">From</label>
          <select
            id="oldest-trailing"
            value={String(group.oldestTrailing)}
            onChange={(e) => update({ oldestTrailing: Number(e.currentTarget.value) })}
          >
            {OLDEST_TRAILING.map((months) => (
              <option key={months} value={String(months)}>
                {months} months ago
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="newest-trailing">To</label>
          <select
            id="newest-trailing"
            value={String(group.newestTrailing)}
            aria-invalid={invalid}
            aria-describedby="window-note"
            onChange={(e) => update({ newestTrailing: Number(e.currentTarget.value) })}
          >
            {NEWEST_TRAILING.map((months) => (
              <option key={months} value={String(months)}>
                {months === 0 ? "today" : `${months} months ago`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p id="window-note" class={invalid ? "hint error" : "hint"}>
        {invalid
          ? "“To” must be more recent than “From”."
          : "Programs effective in this window. Limit adequacy always uses the last 24 months."}
      </p>
    </fieldset>
  );
}
