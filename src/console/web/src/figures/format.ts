/** money(x) as SEMANTICS.md 5 writes it in sentences: `$1,500,000`, `$2,500.50`. */
export function money(value: number): string {
  const cents = Math.round(value * 100);
  const whole = cents % 100 === 0;
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** Short axis labels: $250K, $1.5M, $2B. */
export function compactMoney(value: number): string {
  return `$${new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 }).format(value)}`;
}

export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** ordinal(n) as SEMANTICS.md 5: 1st, 2nd, 11th, 22nd. */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}
