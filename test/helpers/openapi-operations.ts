/**
 * The operations of the served /openapi.json, with the inputs each requires, and
 * sample values for those inputs: what a walk of every REST operation sends.
 */
type Json = { [key: string]: unknown };

/** Valid values of the inputs a walk may need, by name lower-cased without spaces. */
const SAMPLES: Record<string, unknown> = {
  naics: ["52"],
  coverageid: 1,
  exposurerangelow: 0,
  exposurerangehigh: 100_000_000,
  id: 1,
  losseventid: 1,
};

/** Path variables that name no record: 404. */
export const MISSING_ID = 999_999;

/** An input's name as the service compares names: lower case, no spaces. */
export const inputKey = (name: string) => name.replace(/\s+/g, "").toLowerCase();

/** A valid value of the input; an input this table lacks fails the walk until it is added. */
export function sampleInput(name: string): unknown {
  if (!(inputKey(name) in SAMPLES)) throw new Error(`no sample value for the input ${name}: add one to SAMPLES`);
  return SAMPLES[inputKey(name)];
}

/** A query parameter's text: lists comma-separated, as the spec's form. */
export function queryText(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

export interface DocumentedOperation {
  method: string;
  template: string;
  /** Required inputs: path variables, query parameters or body properties, by documented name. */
  required: { name: string; in: "path" | "query" | "body" }[];
  optional: string[];
}

export function documentedOperations(document: Json): DocumentedOperation[] {
  const list: DocumentedOperation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const parameters = (operation.parameters ?? []) as Json[];
      const required: DocumentedOperation["required"] = parameters
        .filter((p) => p.required)
        .map((p) => ({ name: p.name as string, in: p.in as "path" | "query" }));
      const optional = parameters.filter((p) => !p.required).map((p) => p.name as string);
      const bodySchema = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
        "application/json"
      ]?.schema as Json | undefined;
      if (bodySchema) {
        const ref = bodySchema.$ref as string;
        const schema = (document.components as { schemas: Record<string, Json> }).schemas[
          ref.slice(ref.lastIndexOf("/") + 1)
        ]!;
        const names = Object.keys(schema.properties as Json);
        const requiredNames = (schema.required ?? []) as string[];
        required.push(...requiredNames.map((name) => ({ name, in: "body" as const })));
        optional.push(...names.filter((name) => !requiredNames.includes(name)));
      }
      list.push({ method: method.toUpperCase(), template, required, optional });
    }
  }
  return list;
}

/**
 * The path and query, and the JSON body of a POST, of a request with these inputs
 * (by documented name); path variables take `pathValue` or their sample.
 */
export function requestOf(
  op: DocumentedOperation,
  inputs: ReadonlyMap<string, unknown>,
  pathValue?: unknown,
): { path: string; target: string; body: Json } {
  let path = op.template;
  const query = new URLSearchParams();
  const body: Json = {};
  for (const { name, in: place } of op.required) {
    if (place === "path") path = path.replace(`{${name}}`, String(pathValue ?? sampleInput(name)));
  }
  for (const [name, value] of inputs) {
    const place = op.required.find((input) => input.name === name)?.in;
    if (place === "query") query.append(name, queryText(value));
    if (place === "body") body[name] = value;
  }
  return { path, target: `${path}${query.size > 0 ? `?${query}` : ""}`, body };
}

/** The required inputs other than path variables, each with its sample value. */
export function requiredInputs(op: DocumentedOperation): Map<string, unknown> {
  return new Map(
    op.required.filter((input) => input.in !== "path").map((input) => [input.name, sampleInput(input.name)]),
  );
}
