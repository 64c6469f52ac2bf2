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

/**
 * What a reader would make of a field, told from its UTF-8 bytes without a string
 * (the byte road, plain-lines.ts): AS_IS when it gives the text back unchanged (and
 * COPY needs no escape), NULL when it gives null, READ when only the reader itself can
 * say (a refusal, a value it rewrites, a text to escape). Never AS_IS or NULL where
 * the reader says otherwise (test/ingest/field-readers.test.ts).
 */
export const READ = 0;
export const AS_IS = 1;
export const NULL = 2;
export type BytesVerdict = typeof READ | typeof AS_IS | typeof NULL;
export type BytesRule = (bytes: Uint8Array, start: number, end: number) => BytesVerdict;

export interface FieldReader {
  (text: string): FieldRead;
  /** The reader's rule over a field's bytes (text[start..end) of a line). */
  readonly bytes: BytesRule;
}

function fieldReader(read: (text: string) => FieldRead, bytes: BytesRule): FieldReader {
  return Object.assign(read, { bytes });
}

/** 2^53 - 1: the largest company, program and loss id, employee count and amount. */
export const MAX_SAFE = 9_007_199_254_740_991n;
/** 2^31 - 1: the largest coverage and LOB id. */
export const MAX_INT32 = 2_147_483_647n;
// numeric(20, 2) holds up to 18 digits before the point.
const MAX_CENTS = 10n ** 20n;

const IS_REQUIRED = new Refusal("is required");

export function required(reader: FieldReader): FieldReader {
  return fieldReader(
    (text) => (text === "" ? IS_REQUIRED : reader(text)),
    (bytes, start, end) => (end === start ? READ : reader.bytes(bytes, start, end)),
  );
}

export function optional(reader: FieldReader): FieldReader {
  return fieldReader(
    (text) => (text === "" ? null : reader(text)),
    (bytes, start, end) => (end === start ? NULL : reader.bytes(bytes, start, end)),
  );
}

// PostgreSQL text cannot hold U+0000.
const HAS_NUL = new Refusal("must not contain a NUL character");
const NUL = 0x00;
const TAB = 0x09;
const BACKSLASH = 0x5c;
export const text: FieldReader = fieldReader(
  (value) => (value.includes("\u0000") ? HAS_NUL : value),
  // COPY escapes a backslash and a tab (a line holds no line break).
  (bytes, start, end) => {
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      if (byte === NUL || byte === TAB || byte === BACKSLASH) return READ;
    }
    return AS_IS;
  },
);

const NOT_WHOLE = new Refusal("must be a whole number");

/** A whole number in [min, max]. */
export function integer(min: bigint, max: bigint): FieldReader {
  const [low, high] = [Number(min), Number(max)];
  const tooLow = new Refusal(`must be ${min === 1n ? "> 0" : `>= ${min}`}`);
  const tooHigh = new Refusal(`must be at most ${max}`);
  const read = (value: string): FieldRead => {
    // Up to 15 digits a Number is exact, and BigInt costs ten times as much: the
    // long texts (and only they) take the exact road. Both bounds are below 2^53.
    const number = digitsValue(value, 0, value.length);
    if (number >= 0 && value.length <= 15) {
      if (number < low) return tooLow;
      if (number > high) return tooHigh;
      // Already as PostgreSQL would print it unless it has a leading zero.
      return value.length > 1 && value.charCodeAt(0) === ZERO ? String(number) : value;
    }
    if (!WHOLE.test(value)) return NOT_WHOLE;
    const exact = BigInt(value);
    if (exact < min) return tooLow;
    if (exact > max) return tooHigh;
    return exact.toString();
  };
  return fieldReader(read, (bytes, start, end) => {
    const number = bytesDigitsValue(bytes, start, end);
    const plain = number >= 0 && end - start <= 15 && (end - start === 1 || bytes[start] !== ZERO);
    return plain && number >= low && number <= high ? AS_IS : READ;
  });
}

const WHOLE = /^-?\d+$/;
const ZERO = 0x30;
const HYPHEN = 0x2d;

/**
 * The value of text[start..end) when it is one or more ASCII digits, else -1: exact
 * up to 15 digits. A loop over the characters, where the readers took two regular
 * expressions and a Number(): the readers run on every field of millions of rows, and
 * these three on most of them (programs.csv to COPY text, 18.9-20.3 -> 17.1-18.7 CPU-s).
 */
function digitsValue(text: string, start: number, end: number): number {
  if (end <= start) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** digitsValue over bytes[start..end). */
function bytesDigitsValue(bytes: Uint8Array, start: number, end: number): number {
  if (end <= start) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = bytes[i]! - ZERO;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const NOT_DECIMAL = new Refusal("must be a decimal number such as 1234.56");
const NEGATIVE = new Refusal("must be >= 0");
const TOO_LARGE = new Refusal("must be less than 10^18");

/** A decimal >= 0 with `.` and no separators, rounded to cents half away from zero. */
export const money: FieldReader = fieldReader(readMoney, (bytes, start, end) =>
  isPlainCentsBytes(bytes, start, end) ? AS_IS : READ,
);

function readMoney(value: string): FieldRead {
  // Most amounts are already whole cents: PostgreSQL reads them to the same value.
  if (isPlainCents(value)) return value;
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
}

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

/**
 * Up to 15 digits before the point without a leading zero (or a lone 0), and none or
 * one or two after it: no rounding, far below 10^18. (The regular expression
 * /^(?:0|[1-9]\d{0,14})(?:\.\d\d?)?$/, without its cost.)
 */
function isPlainCents(value: string): boolean {
  const point = value.indexOf(".");
  const wholeEnd = point < 0 ? value.length : point;
  if (wholeEnd > 15 || digitsValue(value, 0, wholeEnd) < 0) return false;
  if (wholeEnd > 1 && value.charCodeAt(0) === ZERO) return false;
  if (point < 0) return true;
  const decimals = value.length - point - 1;
  return decimals >= 1 && decimals <= 2 && digitsValue(value, point + 1, value.length) >= 0;
}

/** isPlainCents over bytes[start..end). */
function isPlainCentsBytes(bytes: Uint8Array, start: number, end: number): boolean {
  let point = start;
  while (point < end && bytes[point] !== POINT) point++;
  if (point - start > 15 || bytesDigitsValue(bytes, start, point) < 0) return false;
  if (point - start > 1 && bytes[start] === ZERO) return false;
  if (point === end) return true;
  const decimals = end - point - 1;
  return decimals >= 1 && decimals <= 2 && bytesDigitsValue(bytes, point + 1, end) >= 0;
}

const POINT = 0x2e;

const NOT_A_CODE = new Refusal("must be 2 to 8 letters");

/** Letters only, 2 to 8 of them; stored upper-case. */
export const organizationType: FieldReader = fieldReader(
  (value) => (/^[A-Za-z]{2,8}$/.test(value) ? value.toUpperCase() : NOT_A_CODE),
  (bytes, start, end) =>
    end - start >= 2 && end - start <= 8 && allBetween(bytes, start, end, 0x41, 0x5a) ? AS_IS : READ,
);

const NOT_NAICS = new Refusal("must be 2 to 6 digits");
export const naics: FieldReader = fieldReader(
  (value) => (/^\d{2,6}$/.test(value) ? value : NOT_NAICS),
  (bytes, start, end) =>
    end - start >= 2 && end - start <= 6 && allBetween(bytes, start, end, ZERO, NINE) ? AS_IS : READ,
);

const NINE = 0x39;

/** Whether every byte of bytes[start..end) is in [low, high]. */
function allBetween(bytes: Uint8Array, start: number, end: number, low: number, high: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! < low || bytes[i]! > high) return false;
  return true;
}

const NOT_A_DATE = new Refusal("must be a date YYYY-MM-DD");

/** A date's rule over bytes: as it is when it is one, else the reader says. */
const dateBytes: BytesRule = (bytes, start, end) =>
  end - start === 10 &&
  bytes[start + 4] === HYPHEN &&
  bytes[start + 7] === HYPHEN &&
  isCalendarDay(
    bytesDigitsValue(bytes, start, start + 4),
    bytesDigitsValue(bytes, start + 5, start + 7),
    bytesDigitsValue(bytes, start + 8, start + 10),
  )
    ? AS_IS
    : READ;

/** YYYY-MM-DD, a real calendar date. */
export const date: FieldReader = fieldReader(
  (value) => (value.length === 10 && isCalendarDate(value) ? value : NOT_A_DATE),
  dateBytes,
);

const NOT_A_DATE_OR_TIME = new Refusal("must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:MM:SS");

/** YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (stored with a space for the T: the reader's to write). */
export const dateOrDateTime: FieldReader = fieldReader((value) => {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(value);
  const valid =
    match &&
    isCalendarDate(match[1]!) &&
    (match[2] === undefined || (Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4]) < 60));
  return valid ? value.replace("T", " ") : NOT_A_DATE_OR_TIME;
}, dateBytes);

/** Whether ten characters are YYYY-MM-DD naming a day of the proleptic Gregorian calendar, year 1 on. */
function isCalendarDate(value: string): boolean {
  if (value.charCodeAt(4) !== HYPHEN || value.charCodeAt(7) !== HYPHEN) return false;
  return isCalendarDay(digitsValue(value, 0, 4), digitsValue(value, 5, 7), digitsValue(value, 8, 10));
}

/** Whether year, month and day (-1: not digits) name a day of the calendar, year 1 on. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}
