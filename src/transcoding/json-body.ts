import { parse } from "lossless-json";

/**
 * A JSON number as its text. JSON.parse would turn 0.0049999999999999999 into the
 * double 0.005; amounts are exact decimals (SEMANTICS.md section 5), so the binder
 * gets the digits the caller wrote.
 */
export class NumberText {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** Parses a JSON body, numbers as NumberText; a repeated key keeps its last value, as JSON.parse does. */
export function parseJsonBody(text: string): unknown {
  return parse(text, null, {
    parseNumber: (digits) => new NumberText(digits),
    onDuplicateKey: ({ newValue }) => newValue,
  });
}
