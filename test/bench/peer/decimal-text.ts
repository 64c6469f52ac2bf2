/** Money and exposure amounts as whole cents, written as exact decimal text (no binary rounding). */
export type Cents = bigint;

/** `"123.4"`, `"123.45"`, `"123"` → cents; more than 2 decimals is refused. */
export function parseCents(text: string): Cents {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not an amount with at most 2 decimals`);
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
}

/** Cents → `"1234.05"`, exact at any size (10^15 + 0.01 stays itself). */
export function centsText(cents: Cents): string {
  const whole = cents / 100n;
  const rest = cents % 100n;
  return `${whole}.${rest.toString().padStart(2, "0")}`;
}

/** A JSON value whose number text is written as is. */
export type JsonValue = string | number | boolean | null | { readonly decimal: string } | readonly JsonValue[];

/** A JSON object with exact decimals: `{ decimal: "1000000000000000.01" }` is written unquoted. */
export function jsonText(fields: Readonly<Record<string, JsonValue>>): string {
  const value = (v: JsonValue): string => {
    if (Array.isArray(v)) return `[${v.map(value).join(",")}]`;
    if (v !== null && typeof v === "object" && "decimal" in v) return v.decimal;
    return JSON.stringify(v);
  };
  return `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}:${value(v)}`)
    .join(",")}}`;
}
