import type { Knex } from "knex";
import { DATASET_VERSION_COLUMN } from "./dataset-version-column.js";
import type { Filter, FilterValue, PropertyName } from "../search/filter-syntax.js";
import { simpleLowerCase } from "../search/case-mapping.js";
import type { OrderTerm } from "../search/order-by.js";

export interface CompanySummaryRow {
  companyId: string;
  companyName: string;
  organizationType: string;
}

const COLUMNS: Record<PropertyName, string> = {
  CompanyName: "company_name",
  OrganizationType: "organization_type",
  Id: "company_id",
};

// Names sort and compare case-insensitively by code point (SEMANTICS.md section 10):
// lower() for the case, COLLATE "C" for code point order whatever the database's
// collation. These expressions match the indexes of the search migration.
const SORT_KEYS: Record<PropertyName, string> = {
  CompanyName: 'lower(company_name) collate "C"',
  OrganizationType: 'organization_type collate "C"', // codes are A-Z only: lower-casing keeps their order
  Id: "company_id",
};

/**
 * One page of companies matching a filter, and how many match in all, in one round
 * trip: the count and the page are two sub-selects, so each gets its own cheapest
 * plan (an index-only count, an ordered index scan for the page). Every value is a
 * binding; no text of the request reaches the SQL.
 */
export async function searchCompanies(
  knex: Knex,
  filter: Filter | undefined,
  order: readonly OrderTerm[],
  page: { skip: bigint; top: number },
): Promise<{ totalCount: number; rows: CompanySummaryRow[]; datasetVersion: string }> {
  const where = filter ? compileFilter(knex, filter) : knex.raw("true");
  const orderBy = [...order, { property: "Id" as const, descending: false }]
    .map((term) => `${SORT_KEYS[term.property]} ${term.descending ? "desc" : "asc"}`)
    .join(", ");
  const row = await knex.first(
    knex.raw("(select count(*) from companies where ?) as total_count", [where]),
    knex.raw(
      `(select coalesce(json_agg(json_build_array(company_id::text, company_name, organization_type)), '[]')
        from (select company_id, company_name, organization_type from companies where ?
              order by ${orderBy} limit ? offset ?) page) as rows`,
      [where, page.top, page.skip.toString()],
    ),
    knex.raw(`${DATASET_VERSION_COLUMN} as dataset_version`),
  );
  return {
    datasetVersion: row.dataset_version,
    totalCount: Number(row.total_count),
    rows: (row.rows as [string, string, string][]).map(([companyId, companyName, organizationType]) => ({
      companyId,
      companyName,
      organizationType,
    })),
  };
}

/** The filter as a boolean SQL expression on `companies`. */
function compileFilter(knex: Knex, filter: Filter): Knex.Raw {
  switch (filter.kind) {
    case "and":
    case "or":
      return knex.raw(`(? ${filter.kind} ?)`, [compileFilter(knex, filter.left), compileFilter(knex, filter.right)]);
    case "not":
      // Only `null` comparisons can be unknown here, and they are compiled to is [not] null.
      return knex.raw("(not ?)", [compileFilter(knex, filter.operand)]);
    case "compare":
      return compileComparison(knex, filter);
    case "in":
      if (filter.value.type === "null") return knex.raw("false");
      return knex.raw(`(? in (${filter.list.map(() => "?").join(", ")}))`, [
        comparable(knex, filter.value),
        ...filter.list.map((item) => comparable(knex, item)),
      ]);
    case "test":
      return compileTest(knex, filter);
  }
}

const SQL_OPERATORS = { eq: "=", ne: "<>", gt: ">", ge: ">=", lt: "<", le: "<=" } as const;

function compileComparison(knex: Knex, filter: Extract<Filter, { kind: "compare" }>): Knex.Raw {
  const { left, right, operator } = filter;
  if (left.type === "null" || right.type === "null") {
    // eq/ne with null test presence (only eq and ne reach here).
    const other = left.type === "null" ? right : left;
    const negate = operator === "ne";
    if (other.type === "null") return knex.raw(negate ? "false" : "true");
    return knex.raw(`(? is ${negate ? "not " : ""}null)`, [value(knex, other)]);
  }
  return knex.raw(`(? ${SQL_OPERATORS[operator]} ?)`, [comparable(knex, left), comparable(knex, right)]);
}

/**
 * startswith/endswith/contains: case-insensitive LIKE on lower-cased text, the
 * pattern's own % _ \\ escaped. lower(company_name) is indexed for prefix LIKE
 * (btree) and for substrings (trigram GIN).
 */
function compileTest(knex: Knex, filter: Extract<Filter, { kind: "test" }>): Knex.Raw {
  const subject = knex.raw("lower(?)", [value(knex, filter.subject)]);
  if (filter.pattern.kind === "string") {
    const literal = simpleLowerCase(filter.pattern.value).replace(/[\\%_]/g, (c) => `\\${c}`);
    const pattern =
      filter.fn === "startswith" ? `${literal}%` : filter.fn === "endswith" ? `%${literal}` : `%${literal}%`;
    return knex.raw("(? like ?)", [subject, pattern]);
  }
  const escaped = knex.raw("replace(replace(replace(lower(?), '\\', '\\\\'), '%', '\\%'), '_', '\\_')", [
    value(knex, filter.pattern),
  ]);
  const pattern =
    filter.fn === "startswith"
      ? knex.raw("? || '%'", [escaped])
      : filter.fn === "endswith"
        ? knex.raw("'%' || ?", [escaped])
        : knex.raw("'%' || ? || '%'", [escaped]);
  return knex.raw("(? like ?)", [subject, pattern]);
}

/** A value as compared: strings lower-cased and in code point order, integers as they are. */
function comparable(knex: Knex, item: FilterValue): Knex.Raw {
  if (item.type !== "string") return value(knex, item);
  if (item.kind === "property" && item.name === "CompanyName") return knex.raw(SORT_KEYS.CompanyName);
  return knex.raw('lower(?) collate "C"', [value(knex, item)]);
}

function value(knex: Knex, item: FilterValue): Knex.Raw {
  switch (item.kind) {
    case "property":
      return knex.raw(`${COLUMNS[item.name]}`);
    case "string":
      return knex.raw("?::text", [item.value]);
    case "integer":
      return knex.raw("?::bigint", [item.value.toString()]);
    case "null":
      return knex.raw("null");
    case "transform": {
      const fn = { tolower: "lower", toupper: "upper", trim: "btrim" }[item.fn];
      return knex.raw(`${fn}(?)`, [value(knex, item.argument)]);
    }
  }
}
