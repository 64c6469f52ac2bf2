import { createContextKey, type HandlerContext } from "@connectrpc/connect";

/**
 * The decimal text a REST caller wrote for each `double` field, by the field's JSON
 * name. A double cannot hold 0.0049999999999999999 or 12345678901234567.89, and
 * amounts are exact decimals (SEMANTICS.md section 5): the handler reads the text.
 * Over gRPC and Connect the double itself is what the caller sent.
 */
export const decimalTextsKey = createContextKey<ReadonlyMap<string, string>>(new Map(), {
  description: "decimal texts of a REST request",
});

/** The exact text of a field's value: the caller's own digits over REST, else the double's shortest form. */
export function decimalTexts(ctx: HandlerContext): (field: string, value: number | undefined) => string | undefined {
  const texts = ctx.values.get(decimalTextsKey);
  return (field, value) => texts.get(field) ?? (value === undefined ? undefined : String(value));
}

/** The key of a list item's decimal text: `limits[0]`, `limits[1]`, ... */
export function itemTextKey(field: string, index: number): string {
  return `${field}[${index}]`;
}

/** The exact text of a `repeated double` field's items, as decimalTexts gives a field's. */
export function decimalItemTexts(ctx: HandlerContext, field: string): (index: number, value: number) => string {
  const texts = ctx.values.get(decimalTextsKey);
  return (index, value) => texts.get(itemTextKey(field, index)) ?? String(value);
}
