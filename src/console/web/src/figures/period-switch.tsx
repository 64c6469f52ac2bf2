import { PERIOD_MONTHS, TREND_PERIODS, type PeriodMonths } from "../state/peer-group.js";

const NAMES: Record<PeriodMonths, string> = { 12: "12 months", 6: "6 months", 3: "3 months" };

/** The trend's period length: 12, 6 or 3 months, with as many periods as TREND_PERIODS gives each. */
export function PeriodSwitch({ value, onChange }: { value: PeriodMonths; onChange: (months: PeriodMonths) => void }) {
  return (
    <fieldset class="period-switch no-print" data-testid="trend-period-switch">
      <legend>Periods of</legend>
      {PERIOD_MONTHS.map((months) => (
        <label key={months} class="period-option">
          <input
            type="radio"
            name="trend-period-months"
            value={String(months)}
            checked={value === months}
            onChange={() => onChange(months)}
            data-testid={`trend-period-${months}`}
          />
          {NAMES[months]}
          <span class="visually-hidden"> ({TREND_PERIODS[months]} periods)</span>
        </label>
      ))}
    </fieldset>
  );
}
