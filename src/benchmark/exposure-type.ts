/** The company column each exposure type measures (SEMANTICS.md section 1). */
export type ExposureColumn = "revenues" | "employees" | "market_cap";

const COLUMNS: Record<string, ExposureColumn> = {
  revenues: "revenues",
  employees: "employees",
  marketcap: "market_cap",
};

/**
 * Reads an exposure type case-insensitively, ignoring spaces, `_` and `-`
 * (`Market Cap`, `marketcap`, `MARKET_CAP`); empty means the default, Revenues.
 */
export function exposureColumn(text: string): ExposureColumn | undefined {
  const key = text.replace(/[\s_-]/g, "").toLowerCase();
  return key === "" ? "revenues" : COLUMNS[key];
}
