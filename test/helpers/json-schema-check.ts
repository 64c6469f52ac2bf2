/**
 * Checks a JSON value against a schema of an OpenAPI 3.1 document, for the JSON Schema
 * keywords the document generator writes (src/openapi/). A keyword outside that set
 * is itself a problem, so a schema cannot pass on keywords this check never reads.
 * Objects are checked strictly: a member the schema does not declare is a problem,
 * since the REST face writes exactly the declared fields (json-writer.ts).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };

/** Keywords that only annotate: they constrain nothing. */
const ANNOTATIONS = new Set(["description", "deprecated", "x-aliases", "format"]);
const CHECKED = new Set(["$ref", "anyOf", "type", "properties", "required", "items", "maxItems", "minimum", "enum"]);

/** Every way `value` breaks `schema`, as `path: problem` lines; none when it conforms. */
export function schemaProblems(document: Schema, schema: Schema, value: unknown, path = "$"): string[] {
  const unknown = Object.keys(schema).filter((key) => !ANNOTATIONS.has(key) && !CHECKED.has(key));
  if (unknown.length > 0) return [`${path}: the schema uses keywords this check does not know: ${unknown.join(", ")}`];
  if (typeof schema.$ref === "string") {
    if (Object.keys(schema).length > 1) return [`${path}: $ref with sibling keywords`];
    return schemaProblems(document, resolve(document, schema.$ref), value, path);
  }
  if (Array.isArray(schema.anyOf)) {
    const each = (schema.anyOf as Schema[]).map((option) => schemaProblems(document, option, value, path));
    return each.some((problems) => problems.length === 0)
      ? []
      : [`${path}: matches no anyOf option (${each.flat().join("; ")})`];
  }
  const types = schema.type === undefined ? undefined : ([] as unknown[]).concat(schema.type);
  if (types && !types.some((type) => hasType(value, type as string)))
    return [`${path}: ${JSON.stringify(value)} is not ${types.join(" or ")}`];
  const problems: string[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${path}: ${JSON.stringify(value)} is not one of ${schema.enum.join(", ")}`);
  if (typeof value === "number" && typeof schema.minimum === "number" && value < schema.minimum)
    problems.push(`${path}: ${value} is below ${schema.minimum}`);
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
      problems.push(`${path}: more than ${schema.maxItems} items`);
    if (schema.items)
      value.forEach((item, i) =>
        problems.push(...schemaProblems(document, schema.items as Schema, item, `${path}[${i}]`)),
      );
  } else if (value !== null && typeof value === "object") {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const members = value as Record<string, Json>;
    for (const name of (schema.required ?? []) as string[])
      if (!(name in members)) problems.push(`${path}: ${name} is missing`);
    for (const [name, member] of Object.entries(members)) {
      const property = properties[name];
      if (property) problems.push(...schemaProblems(document, property, member, `${path}.${name}`));
      else problems.push(`${path}: ${name} is not declared`);
    }
  }
  return problems;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

/** A local `#/...` reference of the document (JSON Pointer, RFC 6901). */
export function resolve(document: Schema, ref: string): Schema {
  if (!ref.startsWith("#/")) throw new Error(`not a local reference: ${ref}`);
  let node: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    node = (node as Schema | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  if (node === undefined || node === null || typeof node !== "object") throw new Error(`${ref} resolves to nothing`);
  return node as Schema;
}
