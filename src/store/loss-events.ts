import type { Knex } from "knex";
import { DATASET_VERSION_COLUMN } from "./dataset-version-column.js";

/** One loss event with the names it refers to; timestamps as `YYYY-MM-DDTHH:MM:SS` text. */
export interface LossEventRow {
  companyName: string;
  lossCategory: string;
  lossType: string;
  coverageName: string;
  lineOfBusinessName: string;
  accidentDate: string | null;
  filingDate: string;
  status: string;
  totalAmount: string;
  description: string | null;
  /** The dataset version, read in the same statement. */
  datasetVersion: string;
}

const ISO_LOCAL = `'YYYY-MM-DD"T"HH24:MI:SS'`;

export async function findLossEvent(knex: Knex, lossEventId: bigint): Promise<LossEventRow | undefined> {
  return knex("loss_events as l")
    .join("companies as c", "c.company_id", "l.company_id")
    .join("coverages as cv", "cv.coverage_id", "l.coverage_id")
    .join("lines_of_business as b", "b.line_of_business_id", "l.line_of_business_id")
    .first({
      companyName: "c.company_name",
      lossCategory: "l.loss_category",
      lossType: "l.loss_type",
      coverageName: "cv.name",
      lineOfBusinessName: "b.name",
      accidentDate: knex.raw(`to_char(l.accident_date, ${ISO_LOCAL})`),
      filingDate: knex.raw(`to_char(l.filing_date, ${ISO_LOCAL})`),
      status: "l.status",
      totalAmount: "l.total_amount",
      description: "l.description",
      datasetVersion: knex.raw(DATASET_VERSION_COLUMN),
    })
    .where("l.loss_event_id", lossEventId.toString());
}
