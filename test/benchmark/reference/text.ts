import { scaledToText } from "./exact.js";

/**
 * money(x) of SEMANTICS.md section 5, from x already rounded to cents: `$`, thousands
 * separated by `,`, no decimals when whole, else exactly 2.
 */
export function money(cents: bigint): string {
  const text = scaledToText(cents, 2);
  const [whole = "0", fraction = "00"] = text.split(".");
  let grouped = "";
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) grouped += ",";
    grouped += whole[i];
  }
  return fraction === "00" ? `$${grouped}` : `$${grouped}.${fraction}`;
}

/** ordinal(n) of SEMANTICS.md section 5: 0th, 1st, 2nd, 3rd, 11th, 22nd, 100th. */
export function ordinal(n: bigint): string {
  const lastTwo = n % 100n;
  if (lastTwo === 11n || lastTwo === 12n || lastTwo === 13n) return `${n}th`;
  const last = n % 10n;
  if (last === 1n) return `${n}st`;
  if (last === 2n) return `${n}nd`;
  if (last === 3n) return `${n}rd`;
  return `${n}th`;
}
