import { PROPERTIES, QuerySyntaxError, type PropertyName } from "./filter-syntax.js";

export interface OrderTerm {
  property: PropertyName;
  descending: boolean;
}

/** The default order of a company search: by name (SEMANTICS.md section 10). */
export const DEFAULT_ORDER: OrderTerm[] = [{ property: "CompanyName", descending: false }];

/**
 * Parses `$orderBy`: comma-separated `Property [asc|desc]`, names and directions
 * case-insensitive. Positions count code points, like `$filter`'s.
 */
export function parseOrderBy(text: string): OrderTerm[] {
  if (text.trim() === "") return DEFAULT_ORDER;
  const terms: OrderTerm[] = [];
  let start = 0;
  for (const part of text.split(",")) {
    const words = [...part.matchAll(/\S+/gu)].map((m) => ({ text: m[0], position: start + [...part.slice(0, m.index)].length }));
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
