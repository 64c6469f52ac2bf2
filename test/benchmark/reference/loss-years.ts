import type { CsvRow, ReferenceRequest } from "./model-types.js";

/** The year of the accident date, or of the filing date when the accident date is unknown. */
export function lossYearOf(loss: CsvRow): number {
  const accident = loss.accident_date ?? "";
  const date = accident !== "" ? accident : (loss.filing_date ?? "");
  return Number(date.slice(0, 4));
}

function given(value: number | null | undefined): value is number {
  return value !== undefined && value !== null && value !== 0;
}

/**
 * The loss-year filter (SEMANTICS.md section 3): lossYear alone when given, else
 * year >= oldestLossYear and year <= newestLossYear, each when given.
 */
export function passesLossYears(loss: CsvRow, request: ReferenceRequest): boolean {
  const year = lossYearOf(loss);
  if (given(request.lossYear)) return year === request.lossYear;
  if (given(request.oldestLossYear) && year < request.oldestLossYear) return false;
  if (given(request.newestLossYear) && year > request.newestLossYear) return false;
  return true;
}
