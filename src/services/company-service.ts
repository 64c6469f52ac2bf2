import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { CompanySchema, type CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { findCompany, type CompanyRow } from "../store/companies.js";
import { assertLookupId, notFound } from "./identifier.js";

/** Company lookup (spec 4.5); search (4.6) answers `unimplemented` until it is built. */
export function createCompanyService(knex: Knex): Partial<ServiceImpl<typeof CompanyService>> {
  return {
    async getCompany(req, ctx) {
      assertLookupId(ctx, "company");
      const row = await findCompany(knex, req.id);
      if (!row) throw notFound("company", req.id);
      return { company: toCompany(row) };
    },
  };
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
