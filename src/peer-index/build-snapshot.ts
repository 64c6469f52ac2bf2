import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { RPM_CENTS_SQL } from "../store/sql-fragments.js";
import { forEachCopyRow } from "./copy-rows.js";
import { SnapshotBuilder } from "./snapshot-builder.js";
import type { PeerSnapshot } from "./snapshot.js";

/** The application_name of the build's connection, for pg_stat_activity. */
export const PEER_INDEX_APPLICATION_NAME = "cpb-peer-index";

// The company attributes, in the same columns of both COPYs (fields 3 to 8).
const COMPANY_FIELDS = "c.naics2, c.naics3, c.organization_type, c.revenues, c.employees, c.market_cap";

// In any order (snapshot-builder.ts sorts them); companies without a NAICS code match
// no peer group and are left out. The RPM is the SQL engine's own expression, in cents.
// Each program carries its company as a dense index (ids go up to 2^53 - 1): the
// company's rank among those with a NAICS code, by NAICS code, then id, so that the
// companies of one NAICS key have neighbouring indexes: a scan goes key by key, and
// what it keeps per company (widening-scan.ts, a bit or two bytes a company) is then
// touched in a small window, not all over (a suggestions scan at 10M programs: 19.4
// against 15.4 ms p50); and its source as stored.
const PROGRAMS_COPY = `copy (
  select p.coverage_id, p.effective_date - date '1970-01-01', p.line_of_business_id, ${COMPANY_FIELDS},
         p.limit_amount, p.premium, p.retention,
         case when p.premium is not null and p.limit_amount > 0 then ${RPM_CENTS_SQL} end,
         c.company_index, p.source
  from programs p join (
    select company_id, naics2, naics3, organization_type, revenues, employees, market_cap,
           row_number() over (order by naics3, naics2, company_id) - 1 as company_index
    from companies where naics2 is not null
  ) c on c.company_id = p.company_id
) to stdout`;

// In any order too, each with its rank in answer order within its coverage
// (SEMANTICS.md section 9), and its loss date as days (section 13).
const LOSSES_COPY = `copy (
  select l.coverage_id, l.loss_year, l.line_of_business_id, ${COMPANY_FIELDS},
         l.total_amount, l.loss_event_id,
         row_number() over (partition by l.coverage_id order by l.total_amount, l.loss_event_id) - 1,
         coalesce(l.accident_date, l.filing_date)::date - date '1970-01-01'
  from loss_events l join companies c on c.company_id = l.company_id
  where c.naics2 is not null
) to stdout`;

/**
 * Reads a snapshot of the peer facts from PostgreSQL: one REPEATABLE READ, read-only
 * transaction (so the version, the reference data and every row belong to one
 * dataset version), rows streamed by COPY into typed arrays sized from counts read
 * first, never a JS object per row. On its own connection, free of the servers'
 * query timeout.
 */
export async function buildSnapshot(connectionString: string): Promise<PeerSnapshot> {
  // A database that stops answering must fail the build within seconds, not hang it
  // (the OS's keepalive default is two hours); build-in-worker.ts bounds the whole build.
  const client = new pg.Client({
    connectionString,
    application_name: PEER_INDEX_APPLICATION_NAME,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const version = Number(
      (await client.query<{ version: string }>("select version::text as version from dataset_version")).rows[0]!
        .version,
    );
    const lines = (
      await client.query<{ id: number; coverage: number }>(
        "select line_of_business_id as id, coverage_id as coverage from lines_of_business order by 1",
      )
    ).rows;
    const coverageIds = (
      await client.query<{ id: number }>("select coverage_id as id from coverages order by 1")
    ).rows.map((r) => r.id);
    const counts = (
      await client.query<{ programs: string; losses: string }>(
        // Every program is room enough (the build keeps only those with a NAICS code).
        `select (select count(*) from programs) as programs,
              (select count(*) from loss_events l join companies c on c.company_id = l.company_id where c.naics2 is not null) as losses`,
      )
    ).rows[0]!;

    const builder = new SnapshotBuilder(version, coverageIds, lines);
    builder.startPrograms(Number(counts.programs));
    await forEachCopyRow(client.query(copyTo(PROGRAMS_COPY)), 15, (row) => builder.addProgram(row));
    builder.finishPrograms();
    builder.startLosses(Number(counts.losses));
    await forEachCopyRow(client.query(copyTo(LOSSES_COPY)), 13, (row) => builder.addLoss(row));
    await client.query("commit");
    builder.finishLosses();
    return builder.finish();
  } finally {
    await client.end().catch(() => {});
  }
}
