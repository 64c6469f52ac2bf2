import { AmountField } from "../builder/amount-field.js";
import { MAX_OTHER_LIMITS } from "../state/peer-group.js";

interface OtherLimitsFieldsProps {
  /** As the link has them: amount text, or text that is no amount (marked in its field). */
  limits: readonly string[];
  onChange(limits: string[]): void;
}

/**
 * Up to two limits the broker weighs beside the client's ("what about $10M, or $15M?"),
 * typed as the client's amounts are (5M, 10MM, 15 million). Emptying one moves the next
 * up: the link keeps a list, in the order the columns show them.
 */
export function OtherLimitsFields({ limits, onChange }: OtherLimitsFieldsProps) {
  const commit = (slot: number, value: string) => {
    const next = Array.from({ length: MAX_OTHER_LIMITS }, (_, i) => (i === slot ? value : (limits[i] ?? "")));
    onChange(next.filter((text) => text.trim() !== ""));
  };
  return (
    <fieldset class="other-limits no-print" data-testid="other-limits">
      <legend>Other limits to weigh</legend>
      <p class="hint">Beside the client's limit: how many paid losses passed each.</p>
      <div class="other-limits-fields">
        {Array.from({ length: MAX_OTHER_LIMITS }, (_, slot) => (
          <AmountField
            key={slot}
            id={`other-limit-${slot + 1}`}
            label={`Other limit ${slot + 1}`}
            value={limits[slot] ?? ""}
            positive
            onCommit={(value) => commit(slot, value)}
          />
        ))}
      </div>
    </fieldset>
  );
}
