/**
 * Readers of CSV field text (DATA-FORMAT.md): each answers the value normalized for
 * COPY, `null` for an empty field, or a Refusal with the reason. Every rule of the
 * format is here, in one place, so the staging table only ever holds values its
 * typed columns accept. They run once per field of millions of rows: a value is a
 * bare string and the refusals are made once, so reading allocates next to nothing.
 */
export class Refusal {
  constructor(readonly reason: string) {}
}

export type FieldRead = string | null | Refusal;
export type FieldReader = (text: string) => FieldRead;

/** 2^53 - 1: the largest company, program and loss id, employee count and amount. */
export const MAX_SAFE = 9_007_199_254_740_991n;
/** 2^31 - 1: the largest coverage and LOB id. */
export const MAX_INT32 = 2_147_483_647n;
// numeric(20, 2) holds up to 18 digits before the point.
const MAX_CENTS = 10n ** 20n;

const IS_REQUIRED = new Refusal("is required");

export function required(reader: FieldReader): FieldReader {
  return (text) => (text === "" ? IS_REQUIRED : reader(text));
}

export function optional(reader: FieldReader): FieldReader {
  return (text) => (text === "" ? null : reader(text));
}

// PostgreSQL text cannot hold U+0000.
const HAS_NUL = new Refusal("must not contain a NUL character");
export const text: FieldReader = (value) => (value.includes("\u0000") ? HAS_NUL : value);

const NOT_WHOLE = new Refusal("must be a whole number");

/** A whole number in [min, max]. */
export function integer(min: bigint, max: bigint): FieldReader {
  const [low, high] = [Number(min), Number(max)];
  const tooLow = new Refusal(`must be ${min === 1n ? "> 0" : `>= ${min}`}`);
  const tooHigh = new Refusal(`must be at most ${max}`);
  return (value) => {
    if (!WHOLE.test(value)) return NOT_WHOLE;
    // Up to 15 digits a Number is exact, and BigInt costs ten times as much: the
    // long texts (and only they) take the exact road. Both bounds are below 2^53.
    if (value.length <= 15) {
      const number = Number(value);
      if (number < low) return tooLow;
      if (number > high) return tooHigh;
      return CANONICAL_WHOLE.test(value) ? value : String(number);
    }
    const number = BigInt(value);
    if (number < min) return tooLow;
    if (number > max) return tooHigh;
    return number.toString();
  };
}

const WHOLE = /^-?\d+$/;
/** Already as PostgreSQL would print it: no sign, no leading zero. */
const CANONICAL_WHOLE = /^(?:0|[1-9]\d*)$/;

const NOT_DECIMAL = new Refusal("must be a decimal number such as 1234.56");
const NEGATIVE = new Refusal("must be >= 0");
const TOO_LARGE = new Refusal("must be less than 10^18");

/** A decimal >= 0 with `.` and no separators, rounded to cents half away from zero. */
export const money: FieldReader = (value) => {
  // Most amounts are already whole cents: PostgreSQL reads them to the same value.
  if (PLAIN_CENTS.test(value)) return value;
  const match = DECIMAL.exec(value);
  if (!match || (match[2] === "" && !match[3])) return NOT_DECIMAL;
  const [, sign, whole, fraction = ""] = match;
  // Cents below 10^15 are exact as a Number; longer amounts are counted in BigInt.
  if (whole!.length <= 12) {
    const cents =
      Number(whole || "0") * 100 + Number(fraction.padEnd(2, "0").slice(0, 2)) + (fraction.charAt(2) >= "5" ? 1 : 0);
    if (sign === "-" && cents > 0) return NEGATIVE;
    return `${Math.trunc(cents / 100)}.${cents % 100 < 10 ? "0" : ""}${cents % 100}`;
  }
  const cents = BigInt(`${whole}${fraction.padEnd(2, "0").slice(0, 2)}`) + (fraction.charAt(2) >= "5" ? 1n : 0n);
  if (sign === "-" && cents > 0n) return NEGATIVE;
  if (cents >= MAX_CENTS) return TOO_LARGE;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
};

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;
/** Up to 15 digits before the point, at most 2 after: no rounding, far below 10^18. */
const PLAIN_CENTS = /^(?:0|[1-9]\d{0,14})(?:\.\d\d?)?$/;

const NOT_A_CODE = new Refusal("must be 2 to 8 letters");

/** Letters only, 2 to 8 of them; stored upper-case. */
export const organizationType: FieldReader = (value) =>
  /^[A-Za-z]{2,8}$/.test(value) ? value.toUpperCase() : NOT_A_CODE;

const NOT_NAICS = new Refusal("must be 2 to 6 digits");
export const naics: FieldReader = (value) => (/^\d{2,6}$/.test(value) ? value : NOT_NAICS);

const NOT_A_DATE = new Refusal("must be a date YYYY-MM-DD");

/** YYYY-MM-DD, a real calendar date. */
export const date: FieldReader = (value) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && isCalendarDate(value) ? value : NOT_A_DATE;

const NOT_A_DATE_OR_TIME = new Refusal("must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:MM:SS");

/** YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS. */
export const dateOrDateTime: FieldReader = (value) => {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(value);
  const valid =
    match &&
    isCalendarDate(match[1]!) &&
    (match[2] === undefined || (Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60));
  return valid ? value.replace("T", " ") : NOT_A_DATE_OR_TIME;
};

/** Whether YYYY-MM-DD names a day of the proleptic Gregorian calendar, year 1 on. */
function isCalendarDate(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}
