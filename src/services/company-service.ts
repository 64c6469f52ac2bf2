import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import {
  CompanySchema,
  type CompanyService,
  type SearchCompaniesRequest,
} from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { assertNoProblems, takeBindingProblems, type InputProblem } from "../rpc/input-problems.js";
import { parseFilter } from "../search/filter-parser.js";
import { QuerySyntaxError } from "../search/filter-syntax.js";
import { DEFAULT_ORDER, parseOrderBy } from "../search/order-by.js";
import { searchCompanies } from "../store/company-search.js";
import { findCompany, type CompanyRow } from "../store/companies.js";
import { assertLookupId, notFound } from "./identifier.js";
import { tellDatasetVersion } from "../rpc/dataset-version.js";

/** Company lookup and search (spec 4.5, 4.6). */
export function createCompanyService(knex: Knex): ServiceImpl<typeof CompanyService> {
  return {
    async searchCompanies(req, ctx) {
      const { filter, order, skip, top } = readSearch(req, ctx);
      const { totalCount, rows, datasetVersion } = await searchCompanies(knex, filter, order, { skip, top });
      tellDatasetVersion(ctx, datasetVersion);
      return {
        hasMoreResults: skip + BigInt(rows.length) < BigInt(totalCount),
        pageIndex: top === 0 ? 0n : skip / BigInt(top),
        pageSize: top,
        skip,
        take: top,
        totalCount: BigInt(totalCount),
        data: rows.map((row) => ({
          id: BigInt(row.companyId),
          companyName: row.companyName,
          organizationType: row.organizationType,
        })),
      };
    },

    async getCompany(req, ctx) {
      assertLookupId(ctx, "company");
      const row = await findCompany(knex, req.id);
      if (!row) throw notFound("company", req.id);
      tellDatasetVersion(ctx, row.datasetVersion);
      return { company: toCompany(row) };
    },
  };
}

const DEFAULT_TOP = 100;
const MAX_TOP = 1000;

/** $filter, $orderBy, $skip and $top (SEMANTICS.md section 10), or a 400 with every problem. */
function readSearch(req: SearchCompaniesRequest, ctx: HandlerContext) {
  const problems: InputProblem[] = [...takeBindingProblems(ctx)];
  const unreadable = new Set(problems.map((p) => p.field));
  const parse = <T>(field: string, text: string, parser: (text: string) => T): T | undefined => {
    try {
      return parser(text);
    } catch (error) {
      if (!(error instanceof QuerySyntaxError)) throw error;
      problems.push({ field, message: error.message, position: error.position });
      return undefined;
    }
  };
  const filter = req.filter.trim() === "" ? undefined : parse("$filter", req.filter, parseFilter);
  const order = parse("$orderBy", req.orderBy, parseOrderBy) ?? DEFAULT_ORDER;
  const top = req.top ?? DEFAULT_TOP;
  if (!unreadable.has("$skip") && req.skip < 0n)
    problems.push({ field: "$skip", message: `must be 0 or more, not ${req.skip}` });
  if (!unreadable.has("$top") && (top < 0 || top > MAX_TOP))
    problems.push({ field: "$top", message: `must be from 0 to ${MAX_TOP}, not ${top}` });
  assertNoProblems(problems);
  return { filter, order, skip: req.skip, top };
}

function toCompany(row: CompanyRow) {
  return create(CompanySchema, {
    id: BigInt(row.companyId),
    companyName: row.companyName,
    organizationType: row.organizationType,
    naics2: optionalNumber(row.naics2),
    naics3: optionalNumber(row.naics3),
    revenues: optionalNumber(row.revenues),
    numberOfEmployees: row.employees === null ? undefined : BigInt(row.employees),
    marketCap: optionalNumber(row.marketCap),
  });
}

function optionalNumber(text: string | null): number | undefined {
  return text === null ? undefined : Number(text);
}
