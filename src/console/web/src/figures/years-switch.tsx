import { LOSS_YEARS, type LossYears } from "../state/peer-group.js";

/** The loss experience's span: the last 5, 10 or 20 calendar years before this one. */
export function YearsSwitch({ value, onChange }: { value: LossYears; onChange: (years: LossYears) => void }) {
  return (
    <fieldset class="period-switch no-print" data-testid="losses-years-switch">
      <legend>Years</legend>
      {LOSS_YEARS.map((years) => (
        <label key={years} class="period-option">
          <input
            type="radio"
            name="loss-years"
            value={String(years)}
            checked={value === years}
            onChange={() => onChange(years)}
            data-testid={`losses-years-${years}`}
          />
          {years} years
        </label>
      ))}
    </fieldset>
  );
}
