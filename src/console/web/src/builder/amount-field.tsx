import { useEffect, useState } from "preact/hooks";
import { money } from "../figures/format.js";
import { parseAmount, readAmount } from "../state/amount-text.js";

interface AmountFieldProps {
  id: string;
  label: string;
  value: string;
  /** Called on commit (change: blur or Enter), not per keystroke: each commit is a history entry. */
  onCommit(value: string): void;
  /** Dollars are shown back as money; head counts are not. */
  unit?: "dollars" | "count";
  required?: boolean;
  /** A problem of the group this field is part of (the range's low end above its high end): marked here. */
  error?: string | undefined;
  /** Zero is refused: a limit of $0 covers nothing and has no rate per million. */
  positive?: boolean;
}

/**
 * A labelled amount: typed freely ("5M", "250k", "1,500,000"), checked on commit, and read
 * back formatted ("$5,000,000") so a long number is easy to verify.
 */
export function AmountField({
  id,
  label,
  value,
  onCommit,
  unit = "dollars",
  required = false,
  error,
  positive = false,
}: AmountFieldProps) {
  // Shown as money once committed, not as the URL's raw digits (issue 50): easy to check, and read back as typed.
  const [text, setText] = useState(() => shown(value, unit));
  useEffect(() => setText(shown(value, unit)), [value, unit]);
  const { amount: parsed, problem } = checked(text, positive, label);
  const invalid = problem !== undefined;
  const note = problem ?? error ?? (parsed !== null ? formatted(parsed, unit) : "");
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
        aria-invalid={invalid || error !== undefined}
        aria-describedby={`${id}-note`}
        data-testid={id}
        onInput={(event) => setText(event.currentTarget.value)}
        onChange={() => {
          if (invalid) return;
          onCommit(parsed ?? "");
          // Read back as money even when the amount is the one already committed ("5MM" for $5,000,000).
          setText(shown(parsed ?? "", unit));
        }}
      />
      <p id={`${id}-note`} class={invalid || error !== undefined ? "hint error" : "hint"} data-testid={`${id}-note`}>
        {note}
      </p>
    </div>
  );
}

/** The amount typed (null for none or a wrong one), and why it is wrong when it is. */
function checked(text: string, positive: boolean, label: string): { amount: string | null; problem?: string } {
  if (text.trim() === "") return { amount: null };
  const reading = readAmount(text);
  if ("problem" in reading) return { amount: null, problem: reading.problem };
  if (positive && /^0(\.0*)?$/.test(reading.amount)) return { amount: null, problem: `${label} must be more than $0.` };
  return { amount: reading.amount };
}

/** An amount as money ($5,000,000) or as a count (1,500). */
const formatted = (amount: string, unit: "dollars" | "count") =>
  unit === "dollars" ? money(amount) : Number(amount).toLocaleString("en-US");

/** A committed amount as the field shows it, formatted; text that is no amount, as it is. */
function shown(value: string, unit: "dollars" | "count"): string {
  const amount = parseAmount(value);
  return amount === null || value.trim() === "" ? value : formatted(amount, unit);
}
