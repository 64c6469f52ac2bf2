import { useEffect, useState } from "preact/hooks";
import { money } from "../figures/format.js";
import { isAmount } from "../state/peer-group.js";

interface AmountFieldProps {
  id: string;
  label: string;
  value: string;
  /** Called on commit (change: blur or Enter), not per keystroke: each commit is a history entry. */
  onCommit(value: string): void;
  /** Dollars are shown back as money; head counts are not. */
  unit?: "dollars" | "count";
  required?: boolean;
}

/**
 * A labelled amount: typed freely, checked on commit, and read back formatted
 * ("$5,000,000") so a long number is easy to verify. Separators typed in are dropped.
 */
export function AmountField({ id, label, value, onCommit, unit = "dollars", required = false }: AmountFieldProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const clean = text.replace(/[\s,$_]/g, "");
  const invalid = clean !== "" && !isAmount(clean);
  const readBack = !invalid && clean !== "" ? (unit === "dollars" ? money(clean) : Number(clean).toLocaleString("en-US")) : "";
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autocomplete="off"
        value={text}
        required={required}
        aria-invalid={invalid}
        aria-describedby={`${id}-note`}
        onInput={(event) => setText(event.currentTarget.value)}
        onChange={() => {
          if (!invalid) onCommit(clean);
        }}
      />
      <p id={`${id}-note`} class={invalid ? "hint error" : "hint"}>
        {invalid ? "A positive amount, up to 2 decimals." : readBack}
      </p>
    </div>
  );
}
