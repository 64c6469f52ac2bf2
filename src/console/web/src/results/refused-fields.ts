import type { ApiProblem, FieldProblem } from "../api/problem.js";

/**
 * The field problems of every figure's 400, once each: the figures are separate requests
 * for one group, so the same refused input usually comes back from several of them.
 */
export function refusedFields(problems: readonly (ApiProblem | null)[]): FieldProblem[] {
  const seen = new Set<string>();
  const fields: FieldProblem[] = [];
  for (const problem of problems) {
    if (problem?.status !== 400) continue;
    for (const field of problem.fieldProblems) {
      // The GET forms name fields in their own case (Naics, naics): one problem per field and message.
      const key = `${field.field.toLowerCase()}\u0000${field.message}`;
      if (!seen.has(key)) fields.push(field);
      seen.add(key);
    }
  }
  return fields;
}
