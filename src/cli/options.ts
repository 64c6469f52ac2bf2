import { InvalidArgumentError } from "commander";
import { parseWholeNumber, readDate } from "../config.js";

/** Commander parsers for option values; a bad one is a usage error (exit 2). */
export function positiveInteger(text: string): number {
  const value = parseWholeNumber(text);
  if (value === undefined) throw new InvalidArgumentError(`"${text}" is not a whole number`);
  return value;
}

export function port(text: string): number {
  const value = positiveInteger(text);
  if (value > 65535) throw new InvalidArgumentError(`"${text}" is not a port number`);
  return value;
}

export function isoDate(text: string): string {
  try {
    return readDate("the date", text)!;
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}
