import type { ReferenceRequest } from "../reference/model-types.js";
import { Decimal } from "decimal.js";
import type { SeededRandom } from "../../helpers/seeded-random.js";

/** Which optional inputs an operation takes, beyond the peer group. */
export interface InputSet {
  amounts: readonly ("premium" | "limit" | "retention" | "clientLimit")[];
  trailing: boolean;
  lossYears: boolean;
  /** Use the spec's capitalized GET limit-adequacy names (CoverageId, LobId, ...) at random. */
  limitAdequacyNames: boolean;
  /** periodMonths and periods (the market trend). */
  trend?: boolean;
  /** minPrograms and maxSuggestions (peer-group suggestions). */
  suggestionBounds?: boolean;
  /** years and limits (the loss experience). */
  lossExperience?: boolean;
}

/** The optional bounds an operation reads: the trend's shape, the suggestions' bounds. */
function boundKeys(inputs: InputSet) {
  return [
    ...(inputs.trend ? (["periodMonths", "periods"] as const) : []),
    ...(inputs.lossExperience ? (["years"] as const) : []),
    ...(inputs.suggestionBounds ? (["minPrograms", "maxSuggestions"] as const) : []),
  ];
}

type Json = null | number | string | Json[] | { [key: string]: Json };

/** An equivalent spelling of the exposure type (SEMANTICS.md section 11). */
function exposureSpelling(type: string, random: SeededRandom): string {
  const spellings: Record<string, string[]> = {
    Revenues: ["Revenues", "revenues", "REVENUES"],
    Employees: ["Employees", "employees"],
    "Market Cap": ["Market Cap", "marketcap", "MARKET_CAP", "market-cap"],
  };
  return random.pick(spellings[type] ?? [type]);
}

/**
 * An equivalent spelling of an input name: names match case-insensitively, ignoring
 * spaces, and some have aliases (SEMANTICS.md section 11).
 */
function spell(name: string, random: SeededRandom): string {
  const aliases: Record<string, string[]> = {
    lineOfBusinessId: ["lobId", "lineOfBusiness", "lineOf Business", "LobId"],
    exposureType: ["exposure"],
  };
  const u = random.next();
  if (u < 0.75) return name;
  if (u < 0.8 && aliases[name]) return random.pick(aliases[name]);
  if (u < 0.87) return name.toLowerCase();
  if (u < 0.94) return name.toUpperCase();
  const at = 1 + random.int(name.length - 1);
  return `${name.slice(0, at)} ${name.slice(at)}`;
}

/** A list as comma-separated text: items sometimes padded with spaces, or with an empty item. */
function commaText(items: readonly (string | number)[], random: SeededRandom): string {
  const u = random.next();
  if (u < 0.7) return items.join(",");
  if (u < 0.85) return items.join(" , ");
  return `${items.join(",")},`;
}

/**
 * Decimal text (at most 2 decimals) as the caller sends it: now and then with a third
 * decimal that rounds (half away from zero) back to the same cents, e.g. 1000.005 for
 * 1000.01 and -0.004 for 0.
 */
function decimalText(text: string, random: SeededRandom): string {
  if (!random.chance(0.1)) return text;
  const value = new Decimal(text);
  if (value.isZero()) return random.pick(["0.004", "-0.004", "0.000"]);
  if (value.greaterThan(1e9)) return text;
  return value.minus("0.005").toFixed();
}

/** A number input that is "not given": left out, or sent as null or 0. */
function absentNumber(random: SeededRandom, allowNull: boolean): "omit" | null | 0 {
  const u = random.next();
  return u < 0.5 ? "omit" : u < 0.75 && allowNull ? null : 0;
}

/**
 * The query string of a GET form: lists comma-separated or as repeated parameters,
 * inputs not given left out (or sent as 0 where 0 means not given).
 */
export function toQuery(request: ReferenceRequest, inputs: InputSet, random: SeededRandom): URLSearchParams {
  const query = new URLSearchParams();
  const capital = inputs.limitAdequacyNames && random.chance(0.6);
  const name = (camel: string, spec: string): string => (capital ? spec : spell(camel, random));
  const list = (key: string, items: readonly (string | number)[]): void => {
    if (items.length > 1 && random.chance(0.4)) for (const item of items) query.append(key, String(item));
    else query.append(key, commaText(items, random));
  };
  list(name("naics", "Naics"), request.naics);
  query.append(name("coverageId", "CoverageId"), String(request.coverageId));
  if (request.lineOfBusinessId.length > 0 || random.chance(0.5)) {
    const lobs = request.lineOfBusinessId.length > 0 ? request.lineOfBusinessId : [0];
    list(name("lineOfBusinessId", "LobId"), lobs);
  }
  if (request.exposureType !== "Revenues" || random.chance(0.6)) {
    query.append(name("exposureType", "ExposureType"), exposureSpelling(request.exposureType, random));
  }
  query.append(name("exposureRangeLow", "ExposureRangeLow"), decimalText(request.exposureRangeLow, random));
  query.append(name("exposureRangeHigh", "ExposureRangeHigh"), decimalText(request.exposureRangeHigh, random));
  if (request.organizationType.length > 0) list(name("organizationType", "OrganizationType"), request.organizationType);
  else if (random.chance(0.3)) query.append(name("organizationType", "OrganizationType"), "All");
  for (const amount of inputs.amounts) {
    const value = request[amount];
    if (value === undefined || value === null) continue;
    query.append(
      amount === "clientLimit" ? name("clientLimit", "ClientLimit") : spell(amount, random),
      decimalText(value, random),
    );
  }
  if (inputs.trailing) {
    for (const key of ["oldestTrailing", "newestTrailing"] as const) {
      const value = request[key];
      if (value !== undefined && value !== null) query.append(spell(key, random), String(value));
      else if (absentNumber(random, false) === 0) query.append(spell(key, random), "0");
    }
  }
  // Not given is left out: 0 is no default for these (SEMANTICS.md sections 13 and 14), it is a 400.
  for (const key of boundKeys(inputs)) {
    const value = request[key];
    if (value !== undefined && value !== null) query.append(spell(key, random), String(value));
  }
  const limits = request.limits ?? [];
  if (inputs.lossExperience && limits.length > 0)
    list(
      spell("limits", random),
      limits.map((l) => decimalText(l, random)),
    );
  return query;
}

/**
 * The JSON body of a POST form: lists as arrays (or comma-separated strings),
 * numbers sometimes as numeric strings, inputs not given left out or null (or 0).
 */
export function toBody(request: ReferenceRequest, inputs: InputSet, random: SeededRandom): Record<string, Json> {
  const body: Record<string, Json> = {};
  // JSON numbers are written from decimal text, so `1000.005` goes out as that text.
  const decimal = (text: string): Json => {
    const sent = decimalText(text, random);
    return random.chance(0.15) ? sent : Number(sent);
  };
  const list = (items: readonly (string | number)[]): Json => {
    const u = random.next();
    if (u < 0.15) return commaText(items, random); // a JSON string is split on commas
    if (u < 0.25) return items.map((item) => String(item));
    return [...items];
  };
  // A JSON number is a one-item list, and numbers inside arrays are read as their digits.
  const naics = request.naics;
  body[spell("naics", random)] = random.chance(0.1)
    ? naics.length === 1
      ? Number(naics[0])
      : naics.map(Number)
    : list(naics);
  body[spell("coverageId", random)] = random.chance(0.1) ? String(request.coverageId) : request.coverageId;
  const lobKey = spell("lineOfBusinessId", random);
  if (request.lineOfBusinessId.length > 0) {
    const lobs = request.lineOfBusinessId;
    body[lobKey] = lobs.length === 1 && random.chance(0.2) ? (lobs[0] as number) : list(lobs);
  } else {
    const u = random.next();
    if (u < 0.33) body[lobKey] = [];
    else if (u < 0.5) body[lobKey] = null;
  }
  if (request.exposureType !== "Revenues" || random.chance(0.6))
    body[spell("exposureType", random)] = exposureSpelling(request.exposureType, random);
  body[spell("exposureRangeLow", random)] = decimal(request.exposureRangeLow);
  body[spell("exposureRangeHigh", random)] = decimal(request.exposureRangeHigh);
  const organizationKey = spell("organizationType", random);
  if (request.organizationType.length > 0) body[organizationKey] = list(request.organizationType);
  else if (random.chance(0.4)) body[organizationKey] = random.pick<Json>([["All"], [], "All", null, ""]);
  for (const amount of inputs.amounts) {
    const value = request[amount];
    // The spec's POST limit-adequacy example spells the key `clientlimit`.
    const key = amount === "clientLimit" && random.chance(0.5) ? "clientlimit" : spell(amount, random);
    if (value !== undefined && value !== null) body[key] = decimal(value);
    else if (random.chance(0.3)) body[key] = null;
  }
  const numbers: (keyof ReferenceRequest)[] = [];
  if (inputs.trailing) numbers.push("oldestTrailing", "newestTrailing");
  if (inputs.lossYears) numbers.push("lossYear", "oldestLossYear", "newestLossYear");
  for (const key of boundKeys(inputs)) {
    const value = request[key];
    if (value !== undefined && value !== null) body[spell(key, random)] = random.chance(0.1) ? String(value) : value;
    else if (random.chance(0.3)) body[spell(key, random)] = null;
  }
  if (inputs.lossExperience) {
    const limits = request.limits ?? [];
    const key = spell("limits", random);
    if (limits.length > 0) body[key] = list(limits.map((limit) => decimal(limit) as string | number));
    else if (random.chance(0.3)) body[key] = random.pick<Json>([null, [], ""]);
  }
  for (const key of numbers) {
    const value = request[key] as number | null | undefined;
    const spelled = spell(key, random);
    if (value !== undefined && value !== null) body[spelled] = random.chance(0.1) ? String(value) : value;
    else {
      const absent = absentNumber(random, true);
      if (absent !== "omit") body[spelled] = absent;
    }
  }
  return body;
}
