import t from "tap";
import { createSeededRandom, type SeededRandom } from "../helpers/seeded-random.js";
import { DATASET_FILES } from "../../src/ingest/dataset-files.js";
import {
  AS_IS,
  date,
  dateOrDateTime,
  integer,
  MAX_INT32,
  MAX_SAFE,
  money,
  NULL,
  READ,
  Refusal,
  type FieldRead,
} from "../../src/ingest/field-readers.js";

/**
 * The readers take shortcuts (Numbers below 2^53, amounts already in cents passed
 * through): these are the rules done the long way, in BigInt, to compare against.
 */
function exactInteger(min: bigint, max: bigint, value: string): string {
  if (!/^-?\d+$/.test(value)) return "refused: must be a whole number";
  const number = BigInt(value);
  if (number < min) return `refused: must be ${min === 1n ? "> 0" : `>= ${min}`}`;
  if (number > max) return `refused: must be at most ${max}`;
  return number.toString();
}

function exactMoney(value: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value);
  if (!match || (match[2] === "" && !match[3])) return "refused: must be a decimal number such as 1234.56";
  const [, sign, whole, fraction = ""] = match;
  const cents = BigInt(`${whole || "0"}${fraction.padEnd(2, "0").slice(0, 2)}`) + (fraction.charAt(2) >= "5" ? 1n : 0n);
  if (sign === "-" && cents > 0n) return "refused: must be >= 0";
  if (cents >= 10n ** 20n) return "refused: must be less than 10^18";
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

function refusalOr(read: FieldRead, value: (text: string) => string): string {
  if (read instanceof Refusal) return `refused: ${read.reason}`;
  return read === null ? "null" : value(read);
}

/** What a bigint column stores: the text as the reader gives it. */
const stored = (read: FieldRead) => refusalOr(read, (text) => text);

/** What a numeric(20, 2) column stores from the reader's text, printed as PostgreSQL prints it. */
const storedCents = (read: FieldRead) =>
  refusalOr(read, (text) => {
    const [whole, fraction = ""] = text.split(".");
    return `${BigInt(whole!)}.${fraction.padEnd(2, "0")}`;
  });

/** Number-like text: any length of digits around the limits, leading zeros, signs, points, stray characters. */
function numberText(random: SeededRandom): string {
  const next = random.next;
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(next() * 10))).join("");
  const sign = next() < 0.15 ? "-" : next() < 0.03 ? "+" : "";
  const zeros = next() < 0.1 ? "0".repeat(1 + Math.floor(next() * 3)) : "";
  const whole = digits(Math.floor(next() * 22));
  const fraction = next() < 0.5 ? `.${digits(Math.floor(next() * 5))}` : "";
  // Any printable ASCII character, or a digit of another script (no digit to the rules).
  const stray = next() < 0.05 ? String.fromCharCode(32 + Math.floor(next() * 95)) : next() < 0.01 ? "\u0663" : "";
  const near = [
    "9007199254740991",
    "9007199254740992",
    "2147483647",
    "2147483648",
    "999999999999999",
    "1000000000000000",
    "99999999999999999999",
    "0",
  ];
  if (next() < 0.1) return sign + near[Math.floor(next() * near.length)]!;
  return sign + zeros + whole + fraction + stray;
}

t.test("integer and money readers give what the rules done in BigInt give", async (t) => {
  const ids = integer(1n, MAX_SAFE);
  const smallIds = integer(1n, MAX_INT32);
  const counts = integer(0n, MAX_SAFE);
  const random = createSeededRandom("field readers");
  for (let i = 0; i < 200_000; i++) {
    const text = numberText(random);
    for (const [reader, min, max] of [
      [ids, 1n, MAX_SAFE],
      [smallIds, 1n, MAX_INT32],
      [counts, 0n, MAX_SAFE],
    ] as const) {
      const actual = stored(reader(text));
      const expected = exactInteger(min, max, text);
      if (actual !== expected)
        return void t.equal(actual, expected, `integer(${min}, ${max}) of ${JSON.stringify(text)}`);
    }
    const actual = storedCents(money(text));
    const expected = exactMoney(text);
    if (actual !== expected) return void t.equal(actual, expected, `money of ${JSON.stringify(text)}`);
  }
  t.pass("200,000 texts read alike");
});

/** A calendar date the long way: JavaScript's own proleptic Gregorian calendar. */
function exactDate(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return "refused";
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return "refused";
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  const real =
    calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day;
  return real ? text : "refused";
}

function exactDateOrDateTime(text: string): string {
  const match = /^(.{10})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(text);
  if (!match || exactDate(match[1]!) === "refused") return "refused";
  if (match[2] !== undefined && (Number(match[2]) > 23 || Number(match[3]) > 59 || Number(match[4]) > 59))
    return "refused";
  return text.replace("T", " ");
}

/** Date-like text: years, months and days around their limits, other widths and separators, stray characters. */
function dateText(random: SeededRandom): string {
  const next = random.next;
  const number = (max: number, width: number) =>
    String(Math.floor(next() * (max + 1))).padStart(next() < 0.95 ? width : width - 1, "0");
  const separator = () => (next() < 0.95 ? "-" : random.pick(["/", "", " ", ".", "0"]));
  const year =
    next() < 0.2 ? random.pick(["0000", "0001", "1900", "2000", "2024", "2100", "9999", "10000"]) : number(9999, 4);
  let text = `${year}${separator()}${number(13, 2)}${separator()}${number(32, 2)}`;
  if (next() < 0.3) text += `T${number(25, 2)}:${number(61, 2)}:${number(61, 2)}`;
  if (next() < 0.05)
    text =
      text.slice(0, Math.floor(next() * text.length)) +
      String.fromCharCode(32 + Math.floor(next() * 95)) +
      text.slice(Math.floor(next() * text.length));
  return text;
}

t.test("date readers give what JavaScript's calendar gives", async (t) => {
  const random = createSeededRandom("date readers");
  let dates = 0;
  for (let i = 0; i < 200_000; i++) {
    const text = dateText(random);
    const read = stored(date(text));
    const expected = exactDate(text) === "refused" ? "refused: must be a date YYYY-MM-DD" : text;
    if (read !== expected) return void t.equal(read, expected, `date of ${JSON.stringify(text)}`);
    if (read === text) dates++;
    const either = stored(dateOrDateTime(text));
    const expectedEither = exactDateOrDateTime(text);
    const wanted =
      expectedEither === "refused"
        ? "refused: must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:MM:SS"
        : expectedEither;
    if (either !== wanted) return void t.equal(either, wanted, `dateOrDateTime of ${JSON.stringify(text)}`);
  }
  // Both roads are walked: many texts are real dates, and many are not.
  t.ok(dates > 50_000 && dates < 190_000, `${dates} of 200,000 texts are dates`);
});

/** Text any column may meet: number-like, date-like, codes, words with what COPY escapes, other scripts, empty. */
function anyText(random: SeededRandom): string {
  switch (random.int(4)) {
    case 0:
      return numberText(random);
    case 1:
      return dateText(random);
    case 2:
      return random.pick(["", "LLC", "llc", "Ab", "ABCDEFGHI", "A", "52", "524126", "5241267", "5", "é", "A1"]);
    default:
      return random.pick(["P001", "a\tb", "back\\slash", "nul\u0000", " ", "café", "😀", "x y", "\u0663", "Ω"]);
  }
}

t.test("a reader's rule over bytes vouches only for what the reader gives back unchanged, or null", async (t) => {
  const random = createSeededRandom("byte rules");
  const columns = DATASET_FILES.flatMap((spec) => spec.columns);
  const verdicts = [0, 0, 0];
  for (let i = 0; i < 200_000; i++) {
    const text = anyText(random);
    const bytes = Buffer.from(`,${text},`);
    for (const column of columns) {
      const verdict = column.read.bytes(bytes, 1, bytes.length - 1);
      verdicts[verdict]!++;
      if (verdict === READ) continue;
      const read = column.read(text);
      const escaped = typeof read === "string" && column.sqlType === "text" && /[\\\t]/.test(read);
      const expected = verdict === AS_IS ? text : null;
      if (read !== expected || escaped)
        return void t.equal(read, expected, `${column.column} of ${JSON.stringify(text)}: verdict ${verdict}`);
    }
  }
  // Every verdict is given (null to empty fields of optional columns), so each is checked.
  t.ok(verdicts[AS_IS]! > 1_000_000 && verdicts[NULL]! > 10_000, `verdicts read/as is/null: ${verdicts.join(", ")}`);
});
