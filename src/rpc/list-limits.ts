import { getOption, hasOption, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { max_items as maxItemsOption } from "../../gen/commercialpolicybenchmark/v2/options_pb.js";
import type { InputProblem } from "./input-problems.js";

/**
 * List limits (the `max_items` option of options.proto): read from the descriptors,
 * so the contract states them and every transport enforces the same numbers.
 */

/**
 * Each field's limit, read once: reading an option decodes the field's options anew
 * (protobuf-es keeps extensions as unknown fields), and every request's lists are
 * checked.
 */
const limits = new WeakMap<DescField, number | undefined>();

/** The most items a list field may hold; undefined when the contract sets none. */
export function maxItemsOf(field: DescField): number | undefined {
  if (limits.has(field)) return limits.get(field);
  const max = hasOption(field, maxItemsOption) ? getOption(field, maxItemsOption) : undefined;
  limits.set(field, max);
  return max;
}

/** The problem text of a list over its limit: it names the limit. */
export function tooManyItems(max: number): string {
  return `must have at most ${max} items`;
}

/**
 * The lists of a request message that are longer than their limit, as problems. The
 * REST binder refuses such lists while reading them; gRPC and Connect messages come
 * decoded, so their handlers check here.
 */
export function listLimitProblems(schema: DescMessage, message: object): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const field of schema.fields) {
    const max = field.fieldKind === "list" ? maxItemsOf(field) : undefined;
    const items = (message as Record<string, unknown>)[field.localName];
    if (max !== undefined && Array.isArray(items) && items.length > max) {
      problems.push({ field: field.jsonName, message: tooManyItems(max) });
    }
  }
  return problems;
}
