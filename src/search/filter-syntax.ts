/**
 * The typed expression tree of a `$filter` (SEMANTICS.md section 10): an OData v4
 * subset over three company properties.
 */

export type PropertyName = "CompanyName" | "OrganizationType" | "Id";
export type ComparisonOperator = "eq" | "ne" | "gt" | "ge" | "lt" | "le";
export type StringTest = "startswith" | "endswith" | "contains";
export type StringTransform = "tolower" | "toupper" | "trim";

export type FilterValue =
  | { kind: "property"; name: PropertyName; type: "string" | "integer" }
  | { kind: "string"; value: string; type: "string" }
  | { kind: "integer"; value: bigint; type: "integer" }
  | { kind: "null"; type: "null" }
  | { kind: "transform"; fn: StringTransform; argument: FilterValue; type: "string" };

export type FilterLiteral = Extract<FilterValue, { kind: "string" | "integer" | "null" }>;

export type Filter =
  | { kind: "and" | "or"; left: Filter; right: Filter }
  | { kind: "not"; operand: Filter }
  | { kind: "compare"; operator: ComparisonOperator; left: FilterValue; right: FilterValue }
  | { kind: "in"; value: FilterValue; list: FilterLiteral[] }
  | { kind: "test"; fn: StringTest; subject: FilterValue; pattern: FilterValue };

/** The properties, found case-insensitively. */
export const PROPERTIES: Record<string, { name: PropertyName; type: "string" | "integer" }> = {
  companyname: { name: "CompanyName", type: "string" },
  organizationtype: { name: "OrganizationType", type: "string" },
  id: { name: "Id", type: "integer" },
};

/** A `$filter` or `$orderBy` that is not of the subset: the message names the token and its position. */
export class QuerySyntaxError extends Error {
  constructor(
    message: string,
    /** 0-based, in code points of the decoded text. */
    readonly position: number,
  ) {
    super(`${message} at ${position}`);
  }
}
