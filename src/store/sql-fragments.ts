import type { BandScale } from "../benchmark/bands.js";

/**
 * SQL text for figures computed exactly in PostgreSQL numeric. Only fixed column
 * names are pasted into the text; every value travels as a binding.
 */

/**
 * The quantile q(p) of the sorted array `s` of `n` values (SEMANTICS.md section 5),
 * interpolated by hand between the two neighbours: PostgreSQL's percentile_cont
 * returns double precision, which is not exact (NOTES.md). 0 when n = 0.
 */
export function quantileSql(p: "0.25" | "0.5" | "0.75", places: number, s = "s", n = "n"): string {
  const h = `((${n} - 1) * ${p})`;
  const i = `floor(${h})::int`;
  return `case when ${n} = 0 then 0 else round(${s}[${i} + 1] + (${h} - floor(${h})) * coalesce(${s}[${i} + 2] - ${s}[${i} + 1], 0), ${places}) end`;
}

/**
 * A program's rate per million, rounded to cents half away from zero (SEMANTICS.md
 * section 7), in integer arithmetic: round(a / b) = floor((2a + b) / (2b)) for
 * a, b >= 0, with a = premium * 10^8 and b = limit giving RPM in cents. No division
 * is rounded on the way, so no double rounding.
 */
export const RPM_SQL = "div(premium * 200000000 + limit_amount, limit_amount * 2) * 0.01";

/** Counts per band, `(lower, upper]`, as one array column; the bounds as bindings. */
export function bandCountsSql(scale: BandScale, column: string): { sql: string; bindings: string[] } {
  const bounds = scale.upperBounds.map((b) => b.toString());
  const filters = scale.labels.map((_, band) => {
    if (band === 0) return `count(*) filter (where ${column} <= ?)`;
    if (band === bounds.length) return `count(*) filter (where ${column} > ?)`;
    return `count(*) filter (where ${column} > ? and ${column} <= ?)`;
  });
  const bindings = scale.labels.flatMap((_, band) => {
    if (band === 0) return [bounds[0]!];
    if (band === bounds.length) return [bounds[band - 1]!];
    return [bounds[band - 1]!, bounds[band]!];
  });
  return { sql: `array[${filters.join(", ")}]`, bindings };
}
