import type { BandScale } from "../benchmark/bands.js";
import { Decimal } from "../benchmark/decimal.js";
import { interpolate, quantilePosition, type QuantileLevel } from "../benchmark/quantile.js";

/**
 * SQL text for figures computed exactly in PostgreSQL numeric. Only fixed column
 * names are pasted into the text; every value travels as a binding.
 */

/**
 * The two neighbours s[i] and s[i + 1] of the quantile q(p) in the sorted array `s`
 * of `n` values, i = floor((n - 1)p), as a two-element array (null when n = 0);
 * src/benchmark/quantile.ts interpolates them exactly. PostgreSQL's percentile_cont
 * returns double precision, which is not exact (NOTES.md).
 */
export function quantileNeighboursSql(p: QuantileLevel, s = "s", n = "n"): string {
  const i = `floor((${n} - 1) * ${p})::int`;
  return `case when ${n} = 0 then null else array[${s}[${i} + 1], ${s}[${i} + 2]] end`;
}

/** q(p) from the neighbours that quantileNeighboursSql selected (s[i + 1] is null past the end). */
export function quantileOf(n: number, p: QuantileLevel, neighbours: (string | null)[] | null): Decimal {
  const [lower, upper] = neighbours ?? [];
  if (n === 0 || lower == null) return new Decimal(0);
  return interpolate(
    new Decimal(lower),
    upper == null ? undefined : new Decimal(upper),
    quantilePosition(n, p).fraction,
  );
}

/**
 * A program's rate per million, rounded to cents half away from zero (SEMANTICS.md
 * section 7), in integer arithmetic: round(a / b) = floor((2a + b) / (2b)) for
 * a, b >= 0, with a = premium * 10^8 and b = limit giving RPM in cents. No division
 * is rounded on the way, so no double rounding.
 */
export const RPM_CENTS_SQL = "div(premium * 200000000 + limit_amount, limit_amount * 2)";
export const RPM_SQL = `${RPM_CENTS_SQL} * 0.01`;

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
