/**
 * Readers of CSV field text (DATA-FORMAT.md): each answers the value normalized for
 * COPY, `null` for an empty field, or the reason the text is refused. Every rule of
 * the format is here, in one place, so the staging table only ever holds values its
 * typed columns accept.
 */
export type FieldRead = { value: string | null } | { reason: string };
export type FieldReader = (text: string) => FieldRead;

/** 2^53 - 1: the largest company, program and loss id, employee count and amount. */
export const MAX_SAFE = 9_007_199_254_740_991n;
/** 2^31 - 1: the largest coverage and LOB id. */
export const MAX_INT32 = 2_147_483_647n;
// numeric(20, 2) holds up to 18 digits before the point.
const MAX_CENTS = 10n ** 20n;

const NULL: FieldRead = { value: null };

export function required(reader: FieldReader): FieldReader {
  return (text) => (text === "" ? { reason: "is required" } : reader(text));
}

export function optional(reader: FieldReader): FieldReader {
  return (text) => (text === "" ? NULL : reader(text));
}

// PostgreSQL text cannot hold U+0000.
export const text: FieldReader = (value) => (value.includes("\u0000") ? { reason: "must not contain a NUL character" } : { value });

/** A whole number in [min, max]. */
export function integer(min: bigint, max: bigint): FieldReader {
  return (value) => {
    if (!/^-?\d+$/.test(value)) return { reason: "must be a whole number" };
    const number = BigInt(value);
    if (number < min) return { reason: `must be ${min === 1n ? "> 0" : `>= ${min}`}` };
    if (number > max) return { reason: `must be at most ${max}` };
    return { value: number.toString() };
  };
}

/** A decimal >= 0 with `.` and no separators, rounded to cents half away from zero. */
export const money: FieldReader = (value) => {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value);
  if (!match || (match[2] === "" && !match[3])) return { reason: "must be a decimal number such as 1234.56" };
  const [, sign, whole, fraction = ""] = match;
  const cents = BigInt(`${whole || "0"}${fraction.padEnd(2, "0").slice(0, 2)}`) + (fraction.charAt(2) >= "5" ? 1n : 0n);
  if (sign === "-" && cents > 0n) return { reason: "must be >= 0" };
  if (cents >= MAX_CENTS) return { reason: "must be less than 10^18" };
  return { value: `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}` };
};

/** Letters only, 2 to 8 of them; stored upper-case. */
export const organizationType: FieldReader = (value) =>
  /^[A-Za-z]{2,8}$/.test(value) ? { value: value.toUpperCase() } : { reason: "must be 2 to 8 letters" };

export const naics: FieldReader = (value) => (/^\d{2,6}$/.test(value) ? { value } : { reason: "must be 2 to 6 digits" });

/** YYYY-MM-DD, a real calendar date. */
export const date: FieldReader = (value) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && isCalendarDate(value) ? { value } : { reason: "must be a date YYYY-MM-DD" };

/** YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS. */
export const dateOrDateTime: FieldReader = (value) => {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(value);
  const valid =
    match && isCalendarDate(match[1]!) && (match[2] === undefined || (Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60));
  return valid ? { value: value.replace("T", " ") } : { reason: "must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:MM:SS" };
};

function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split("-").map(Number) as [number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
