import { Ajv2020 } from "ajv/dist/2020.js";
import { matchOpenApiPath } from "./openapi-path-match.js";

/**
 * Checks a real HTTP answer against the OpenAPI document that describes it, as a
 * validating gateway or a generated client would read it: the operation must list the
 * status (directly or through `components/responses`), the body must be JSON of a
 * listed media type that validates against its schema (ajv, JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1), every required header must be present and every header
 * the answer carries that the document describes must match its schema. A 304 has
 * no body.
 */
type Json = { [key: string]: unknown };

export interface SeenAnswer {
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  headers: Headers;
  body: string;
}

export interface AnswerChecker {
  /** Every way the answer breaks the document; none when it conforms. */
  problems(answer: SeenAnswer): string[];
}

export function createAnswerChecker(document: Json): AnswerChecker {
  // Formats (int32, double, ...) are OpenAPI's annotations, not 2020-12 assertions;
  // `x-aliases` is an extension: strict mode would refuse both.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(document, "openapi.json");
  const paths = document.paths as Record<string, Record<string, Json>>;
  const resolve = (node: Json): Json => {
    if (typeof node.$ref !== "string") return node;
    let found: unknown = document;
    for (const part of node.$ref.slice(2).split("/")) found = (found as Json)[part];
    return found as Json;
  };
  const pointer = (segments: string[]) =>
    `openapi.json#/${segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

  return {
    problems({ method, path, status, headers, body }) {
      const match = matchOpenApiPath(Object.keys(paths), path);
      if (!match) return [`${path}: no path of the document`];
      const operation = paths[match.template]![method.toLowerCase()];
      if (!operation) return [`${method} ${match.template}: no such operation`];
      const name = `${method} ${match.template} ${status}`;
      const listed = (operation.responses as Json)[String(status)] as Json | undefined;
      if (!listed) return [`${name}: status not documented`];
      const response = resolve(listed);
      const problems: string[] = [];
      for (const [header, declared] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
        const value = headers.get(header);
        if (value === null) {
          if (declared.required) problems.push(`${name}: required header ${header} missing`);
          continue;
        }
        const validate = ajv.compile(declared.schema as Json);
        if (!validate(value)) problems.push(`${name}: header ${header}: ${ajv.errorsText(validate.errors)}`);
      }
      const content = response.content as Record<string, Json> | undefined;
      if (!content) {
        if (body !== "") problems.push(`${name}: a body where the document says none`);
        return problems;
      }
      const type = (headers.get("content-type") ?? "").split(";")[0]!.trim();
      const responseRef =
        typeof listed.$ref === "string"
          ? listed.$ref.slice(2).split("/")
          : ["paths", match.template, method.toLowerCase(), "responses", String(status)];
      if (!(type in content))
        return [...problems, `${name}: content type ${type} not documented (${Object.keys(content).join(", ")})`];
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return [...problems, `${name}: the body is not JSON`];
      }
      const validate = ajv.getSchema(pointer([...responseRef, "content", type, "schema"]))!;
      if (!validate(value)) problems.push(`${name}: ${ajv.errorsText(validate.errors)} in ${body.slice(0, 200)}`);
      return problems;
    },
  };
}
