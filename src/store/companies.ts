import type { Knex } from "knex";
import { DATASET_VERSION_COLUMN } from "./dataset-version-column.js";

/** A company row as stored; numeric and bigint columns come back as exact text. */
export interface CompanyRow {
  companyId: string;
  companyName: string;
  organizationType: string;
  naics2: string | null;
  naics3: string | null;
  revenues: string | null;
  employees: string | null;
  marketCap: string | null;
  /** The dataset version, read in the same statement. */
  datasetVersion: string;
}

export async function findCompany(knex: Knex, companyId: bigint): Promise<CompanyRow | undefined> {
  return knex("companies")
    .first({
      companyId: "company_id",
      companyName: "company_name",
      organizationType: "organization_type",
      naics2: "naics2",
      naics3: "naics3",
      revenues: "revenues",
      employees: "employees",
      marketCap: "market_cap",
      datasetVersion: knex.raw(DATASET_VERSION_COLUMN),
    })
    .where("company_id", companyId.toString());
}
