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
  const problem = amountProblem(text, positive, label);
  const parsed = problem === undefined ? parseAmount(text) : null;
  const invalid = problem !== undefined;
  const readBack = parsed !== null ? (unit === "dollars" ? money(parsed) : Number(parsed).toLocaleString("en-US")) : "";
  const note = problem ?? error ?? readBack;
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
          if (!invalid) onCommit(parsed ?? "");
        }}
      />
      <p id={`${id}-note`} class={invalid || error !== undefined ? "hint error" : "hint"} data-testid={`${id}-note`}>
        {note}
      </p>
    </div>
  );
}

/** Why the text typed is not an amount the field takes, or undefined when it is (or is empty). */
function amountProblem(text: string, positive: boolean, label: string): string | undefined {
  if (text.trim() === "") return undefined;
  const reading = readAmount(text);
  if ("problem" in reading) return reading.problem;
  if (positive && /^0(\.0*)?$/.test(reading.amount)) return `${label} must be more than $0.`;
  return undefined;
}

/** A committed amount as the field shows it: $5,000,000 or 1,500; text that is no amount, as it is. */
function shown(value: string, unit: "dollars" | "count"): string {
  const amount = parseAmount(value);
  if (amount === null || value.trim() === "") return value;
  return unit === "dollars" ? money(amount) : Number(amount).toLocaleString("en-US");
}
