import { PROPERTIES, QuerySyntaxError, type PropertyName } from "./filter-syntax.js";

export interface OrderTerm {
  property: PropertyName;
  descending: boolean;
}

/**
 * The most terms `$orderBy` may list. There are three properties, so a longer list
 * only repeats one; ten leave room for a client that writes a property twice.
 */
export const MAX_ORDER_TERMS = 10;

/** The default order of a company search: by name (SEMANTICS.md section 10). */
export const DEFAULT_ORDER: OrderTerm[] = [{ property: "CompanyName", descending: false }];

/**
 * Parses `$orderBy`: comma-separated `Property [asc|desc]`, names and directions
 * case-insensitive. Positions count code points, like `$filter`'s. At most
 * MAX_ORDER_TERMS terms, and at most three words of each are looked at: the cost stays
 * linear in the text, however long (a gRPC caller may send 1 MiB).
 */
export function parseOrderBy(text: string): OrderTerm[] {
  if (text.trim() === "") return DEFAULT_ORDER;
  const terms: OrderTerm[] = [];
  let start = 0;
  for (const part of text.split(",", MAX_ORDER_TERMS + 1)) {
    if (terms.length === MAX_ORDER_TERMS) throw new QuerySyntaxError(`more than ${MAX_ORDER_TERMS} terms`, start);
    const words = firstWords(part, 3).map(({ text, index }) => ({
      text,
      position: start + [...part.slice(0, index)].length,
    }));
    const [name, direction, extra] = words;
    if (!name) throw new QuerySyntaxError("expected a property", start + [...part].length);
    const property = PROPERTIES[name.text.toLowerCase()];
    if (!property) throw new QuerySyntaxError(`unknown property '${name.text}'`, name.position);
    if (direction && !/^(asc|desc)$/i.test(direction.text)) {
      throw new QuerySyntaxError(`expected asc or desc instead of '${direction.text}'`, direction.position);
    }
    if (extra) throw new QuerySyntaxError(`unexpected '${extra.text}'`, extra.position);
    terms.push({ property: property.name, descending: direction?.text.toLowerCase() === "desc" });
    start += [...part].length + 1;
  }
  return terms;
}

/** The first `count` words of a text, with their offsets. */
function firstWords(text: string, count: number): { text: string; index: number }[] {
  const words: { text: string; index: number }[] = [];
  for (const match of text.matchAll(/\S+/gu)) {
    words.push({ text: match[0], index: match.index });
    if (words.length === count) break;
  }
  return words;
}
