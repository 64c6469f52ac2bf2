import pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { bandOfCents, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { RPM_CENTS_SQL } from "../store/sql-fragments.js";
import { forEachCopyRow, type CopyRow } from "./copy-rows.js";
import { naicsKey } from "./naics-key.js";
import { NO_RANK, SECTORS, type RowRange, type CompanyColumns, type CoverageSlices, type LossColumns, type PeerSnapshot, type ProgramColumns, type SectorRows } from "./snapshot.js";

/** The application_name of the build's connection, for pg_stat_activity. */
export const PEER_INDEX_APPLICATION_NAME = "cpb-peer-index";

const NO_BAND = 255;
/** Lines of business and organization types are indexed in 16 bits. */
const MAX_CODES = 0xffff;

// The company attributes, in the same columns of both COPYs (fields 3 to 8).
const COMPANY_FIELDS = "c.naics2, c.naics3, c.organization_type, c.revenues, c.employees, c.market_cap";

// Sorted by coverage, sector and effective date, so a sector's window is one range;
// companies without a NAICS code match no peer group and are left out. The RPM is the
// SQL engine's own expression, in integer cents.
const PROGRAMS_COPY = `copy (
  select p.coverage_id, p.effective_date - date '1970-01-01', p.line_of_business_id, ${COMPANY_FIELDS},
         p.limit_amount, p.premium, p.retention,
         case when p.premium is not null and p.limit_amount > 0 then ${RPM_CENTS_SQL} end
  from programs p join companies c on c.company_id = p.company_id
  where c.naics2 is not null
  order by p.coverage_id, c.naics2, p.effective_date
) to stdout`;

// Sorted by coverage, sector and loss year, each with its rank in answer order within
// its coverage (SEMANTICS.md section 9).
const LOSSES_COPY = `copy (
  select l.coverage_id, l.loss_year, l.line_of_business_id, ${COMPANY_FIELDS},
         l.total_amount, l.loss_event_id,
         row_number() over (partition by l.coverage_id order by l.total_amount, l.loss_event_id) - 1
  from loss_events l join companies c on c.company_id = l.company_id
  where c.naics2 is not null
  order by l.coverage_id, c.naics2, l.loss_year
) to stdout`;

/**
 * Reads a snapshot of the peer facts from PostgreSQL: one REPEATABLE READ, read-only
 * transaction (so the version, the reference data and every row belong to one
 * dataset version), rows streamed by COPY into typed arrays sized from counts read
 * first. On its own connection, free of the servers' query timeout.
 */
export async function buildSnapshot(connectionString: string): Promise<PeerSnapshot> {
  const client = new pg.Client({ connectionString, application_name: PEER_INDEX_APPLICATION_NAME, keepAlive: true });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const version = Number((await client.query<{ version: string }>("select version::text as version from dataset_version")).rows[0]!.version);
    const lines = (await client.query<{ id: number; coverage: number }>(
      "select line_of_business_id as id, coverage_id as coverage from lines_of_business order by 1",
    )).rows;
    const coverageIds = (await client.query<{ id: number }>("select coverage_id as id from coverages order by 1")).rows.map((r) => r.id);
    const counts = (await client.query<{ programs: string; losses: string }>(
      `select (select count(*) from programs p join companies c on c.company_id = p.company_id where c.naics2 is not null) as programs,
              (select count(*) from loss_events l join companies c on c.company_id = l.company_id where c.naics2 is not null) as losses`,
    )).rows[0]!;

    const builder = new SnapshotBuilder(version, coverageIds, lines);
    const programs = builder.programColumns(Number(counts.programs));
    await forEachCopyRow(client.query(copyTo(PROGRAMS_COPY)), 13, (row) => builder.addProgram(programs, row));
    const losses = builder.lossColumns(Number(counts.losses));
    await forEachCopyRow(client.query(copyTo(LOSSES_COPY)), 12, (row) => builder.addLoss(losses, row));
    await client.query("commit");
    return builder.finish(programs, losses);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Fills the columns row by row, tracking each coverage's ranges and exactness. */
class SnapshotBuilder {
  private readonly coverages = new Map<number, CoverageSlices>();
  private readonly lineIndex = new Map<number, number>();
  private readonly organizationIndex = new Map<string, number>();
  private readonly organizationByKey = new Map<number, number>();
  private readonly largeRpms = new Map<number, bigint>();
  /** The sector of the last row of each coverage's rows, while they are read. */
  private readonly lastSector = new Map<SectorRows, number>();
  private programRows = 0;
  private lossRows = 0;

  constructor(
    private readonly version: number,
    coverageIds: number[],
    lines: { id: number; coverage: number }[],
  ) {
    for (const id of coverageIds) {
      this.coverages.set(id, { lineOfBusinessIds: [], programs: emptySectorRows(), losses: emptySectorRows(), exact: true });
    }
    if (lines.length > MAX_CODES) throw new Error(`more than ${MAX_CODES} lines of business: too many for the peer index`);
    for (const line of lines) {
      this.lineIndex.set(line.id, this.lineIndex.size);
      this.coverages.get(line.coverage)?.lineOfBusinessIds.push(line.id);
    }
  }

  programColumns(rows: number): ProgramColumns {
    return {
      ...companyColumns(rows),
      day: new Int32Array(rows),
      limit: new Float64Array(rows),
      premium: new Float64Array(rows),
      retention: new Float64Array(rows),
      limitBand: new Uint8Array(rows),
      premiumBand: new Uint8Array(rows),
      retentionBand: new Uint8Array(rows),
      rpm: new Float64Array(rows),
      rpmRank: new Uint32Array(rows),
      rowByRpmRank: new Uint32Array(rows),
      limitRank: new Uint32Array(rows),
      rowByLimitRank: new Uint32Array(rows),
    };
  }

  lossColumns(rows: number): LossColumns {
    return {
      ...companyColumns(rows),
      year: new Int32Array(rows),
      amount: new Float64Array(rows),
      id: new Float64Array(rows),
      rowByRank: new Uint32Array(rows),
      rank: new Uint32Array(rows),
    };
  }

  addProgram(columns: ProgramColumns, row: CopyRow): void {
    const i = this.programRows++;
    if (i >= columns.day.length) throw new Error("more programs than counted");
    const coverage = this.enter(row.integer(0), row.integer(3), "programs", i);
    columns.day[i] = row.integer(1);
    let exact = this.addCompany(columns, i, row);
    const limit = (columns.limit[i] = row.scaled(9, 2));
    const premium = (columns.premium[i] = row.scaled(10, 2));
    const retention = (columns.retention[i] = row.scaled(11, 2));
    const rpm = (columns.rpm[i] = row.integer(12));
    if (!safe(rpm)) this.largeRpms.set(i, BigInt(row.text(12)));
    columns.limitBand[i] = Number.isNaN(limit) ? NO_BAND : bandOfCents(LIMIT_BANDS, limit);
    columns.premiumBand[i] = Number.isNaN(premium) ? NO_BAND : bandOfCents(PREMIUM_BANDS, premium);
    columns.retentionBand[i] = Number.isNaN(retention) ? NO_BAND : bandOfCents(RETENTION_BANDS, retention);
    exact &&= safe(limit) && safe(premium) && safe(retention);
    if (!exact) coverage.exact = false;
  }

  addLoss(columns: LossColumns, row: CopyRow): void {
    const i = this.lossRows++;
    if (i >= columns.year.length) throw new Error("more loss events than counted");
    const coverage = this.enter(row.integer(0), row.integer(3), "losses", i);
    columns.year[i] = row.integer(1);
    if (!this.addCompany(columns, i, row)) coverage.exact = false;
    columns.amount[i] = row.integer(9);
    columns.id[i] = row.integer(10);
    const rank = row.integer(11);
    columns.rank[i] = rank;
    columns.rowByRank[coverage.losses.start + rank] = i;
  }

  finish(programs: ProgramColumns, losses: LossColumns): PeerSnapshot {
    if (this.programRows !== programs.day.length || this.lossRows !== losses.year.length) {
      throw new Error("fewer rows than counted");
    }
    // The sectors after a coverage's last one start (empty) at its end.
    for (const [rows, last] of this.lastSector) rows.bySector.fill(rows.end, last + 1);
    for (const { programs: range } of this.coverages.values()) {
      rankRows(programs.rpm, range, programs.rpmRank, programs.rowByRpmRank, this.largeRpms);
      rankRows(programs.limit, range, programs.limitRank, programs.rowByLimitRank);
    }
    let largestCoverage = 0;
    for (const slices of this.coverages.values()) {
      largestCoverage = Math.max(largestCoverage, slices.programs.end - slices.programs.start, slices.losses.end - slices.losses.start);
    }
    return {
      version: this.version,
      coverages: this.coverages,
      lineOfBusinessIds: [...this.lineIndex.keys()],
      lineIndex: this.lineIndex,
      organizationTypes: [...this.organizationIndex.keys()],
      organizationIndex: this.organizationIndex,
      programs,
      largeRpms: this.largeRpms,
      losses,
      largestCoverage,
    };
  }

  /**
   * The coverage of row i, whose NAICS sector is `sector`. Rows come grouped by coverage
   * and then by sector, so a coverage's rows grow at their end, sector after sector.
   */
  private enter(coverageId: number, sector: number, table: "programs" | "losses", i: number): CoverageSlices {
    const coverage = this.coverages.get(coverageId);
    if (!coverage) throw new Error(`${table} row of unknown coverage ${coverageId}`);
    const rows = coverage[table];
    const last = this.lastSector.get(rows);
    if (last === undefined) {
      rows.start = i;
      rows.bySector.fill(i, 0, sector + 1);
    } else if (rows.end !== i) {
      throw new Error(`${table} of coverage ${coverageId} are not contiguous`);
    } else if (sector !== last) {
      if (sector < last) throw new Error(`${table} of coverage ${coverageId} are not sorted by sector`);
      rows.bySector.fill(i, last + 1, sector + 1);
    }
    this.lastSector.set(rows, sector);
    rows.end = i + 1;
    return coverage;
  }

  /** Copies the company fields (3 to 8) and the row's line; false when an exposure is not exact. */
  private addCompany(columns: CompanyColumns, i: number, row: CopyRow): boolean {
    const line = this.lineIndex.get(row.integer(2));
    if (line === undefined) throw new Error(`unknown line of business ${row.text(2)}`);
    columns.line[i] = line;
    columns.naics[i] = naicsKey(row.integer(3), row.integer(4));
    columns.organization[i] = this.organization(row);
    const revenues = (columns.revenues[i] = row.scaled(6, 2));
    columns.employees[i] = row.integer(7);
    const marketCap = (columns.marketCap[i] = row.scaled(8, 2));
    return safe(revenues) && safe(marketCap);
  }

  private organization(row: CopyRow): number {
    const key = row.codeKey(5);
    let index = this.organizationByKey.get(key);
    if (index === undefined) {
      if (this.organizationIndex.size === MAX_CODES) throw new Error(`more than ${MAX_CODES} organization types: too many for the peer index`);
      const code = row.text(5);
      index = this.organizationIndex.size;
      this.organizationIndex.set(code, index);
      this.organizationByKey.set(key, index);
    }
    return index;
  }
}

/**
 * Ranks the values of a coverage's rows [start, end) (NaN: none, NO_RANK), ties broken
 * by row: one native sort of the values, then each row's rank is where its value
 * starts in the sorted list plus the rows of that value already ranked. Values past
 * 2^53 - 1 sort after every other; their order among themselves comes from `exact`.
 */
function rankRows(values: Float64Array, { start, end }: RowRange, rank: Uint32Array, rowByRank: Uint32Array, exact?: ReadonlyMap<number, bigint>): void {
  const sorted = values.slice(start, end).filter((value) => !Number.isNaN(value)).sort();
  const taken = new Uint32Array(sorted.length);
  const large: number[] = [];
  for (let i = start; i < end; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) {
      rank[i] = NO_RANK;
      continue;
    }
    if (value > Number.MAX_SAFE_INTEGER && exact) {
      large.push(i);
      continue;
    }
    const first = lowerBound(sorted, value);
    const r = first + taken[first]!++;
    rank[i] = r;
    rowByRank[start + r] = i;
  }
  large.sort((a, b) => {
    const [x, y] = [exact!.get(a)!, exact!.get(b)!];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  large.forEach((row, j) => {
    const r = sorted.length - large.length + j;
    rank[row] = r;
    rowByRank[start + r] = row;
  });
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function emptySectorRows(): SectorRows {
  return { start: 0, end: 0, bySector: new Int32Array(SECTORS + 1) };
}

function companyColumns(rows: number): CompanyColumns {
  return {
    naics: new Uint16Array(rows),
    organization: new Uint16Array(rows),
    line: new Uint16Array(rows),
    revenues: new Float64Array(rows),
    employees: new Float64Array(rows),
    marketCap: new Float64Array(rows),
  };
}

/** Exact as a float64 integer (NaN, SQL NULL, is exact too). */
function safe(value: number): boolean {
  return !(value > Number.MAX_SAFE_INTEGER);
}
