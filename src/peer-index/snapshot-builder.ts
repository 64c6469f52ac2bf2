import { bandOfCents, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import { CompanyTableBuilder, safe } from "./company-table.js";
import type { CopyRow } from "./copy-rows.js";
import { NAICS_KEYS } from "./naics-key.js";
import { bucketOf, createPermuter, rowOrder } from "./program-order.js";
import { rankRows } from "./rank-rows.js";
import { NO_BAND, type CoverageSlices, type LossColumns, type NaicsRows, type PeerSnapshot, type ProgramColumns, type RowColumns } from "./snapshot.js";

// Filled once the rows are in order, not loaded.
const PROGRAM_RANKS: readonly string[] = ["rpmRank", "rowByRpmRank", "limitRank", "rowByLimitRank"];
const LOSS_RANKS: readonly string[] = ["rowByRank"];
/** Lines of business are indexed in 16 bits. */
const MAX_LINES = 0xffff;

/**
 * Turns the rows of the three COPYs into a snapshot: the companies first (company-table.ts),
 * then programs and loss events, which carry their company's id in field 3. Rows
 * arrive in any order and are sorted here (program-order.ts); loss events come with
 * their rank in answer order.
 */
export class SnapshotBuilder {
  private readonly coverages = new Map<number, CoverageSlices>();
  private readonly coverageIndex = new Map<number, number>();
  private readonly lineIndex = new Map<number, number>();
  private readonly companies = new CompanyTableBuilder();
  /** Exact RPMs past 2^53 - 1 cents, by row as loaded, then as sorted. */
  private largeRpms = new Map<number, bigint>();
  private programs: ProgramColumns | undefined;
  private losses: LossColumns | undefined;
  /** Each loaded row's bucket (coverage, NAICS key), for the sort. */
  private bucket = new Uint32Array(0);
  private rows = 0;

  constructor(
    private readonly version: number,
    coverageIds: number[],
    lines: { id: number; coverage: number }[],
  ) {
    for (const id of coverageIds) {
      this.coverageIndex.set(id, this.coverages.size);
      this.coverages.set(id, { lineOfBusinessIds: [], programs: emptyNaicsRows(), losses: emptyNaicsRows(), exact: true });
    }
    if (lines.length > MAX_LINES) throw new Error(`more than ${MAX_LINES} lines of business: too many for the peer index`);
    for (const line of lines) {
      this.lineIndex.set(line.id, this.lineIndex.size);
      this.coverages.get(line.coverage)?.lineOfBusinessIds.push(line.id);
    }
  }

  /** Room for exactly `count` companies. */
  startCompanies(count: number): void {
    this.companies.start(count);
  }

  /** Fields: company id (ascending), naics2, naics3, organization type, revenues, employees, market cap. */
  addCompany(row: CopyRow): void {
    this.companies.add(row);
  }

  finishCompanies(): void {
    this.companies.finish();
  }

  /** Room for up to `capacity` programs, in load order. */
  startPrograms(capacity: number): void {
    this.programs = {
      ...rowColumns(capacity),
      day: new Int32Array(capacity),
      limit: new Float64Array(capacity),
      premium: new Float64Array(capacity),
      retention: new Float64Array(capacity),
      limitBand: new Uint8Array(capacity),
      premiumBand: new Uint8Array(capacity),
      retentionBand: new Uint8Array(capacity),
      rpm: new Float64Array(capacity),
      rpmRank: new Uint32Array(0),
      rowByRpmRank: new Uint32Array(0),
      limitRank: new Uint32Array(0),
      rowByLimitRank: new Uint32Array(0),
    };
    this.startRows(capacity);
  }

  /** Fields: coverage, day, line, company id, limit, premium, retention, RPM cents. */
  addProgram(row: CopyRow): void {
    const columns = this.programs!;
    const i = this.rows++;
    const coverage = this.addRow(columns, i, row, "programs");
    columns.day[i] = row.integer(1);
    const limit = (columns.limit[i] = row.scaled(4, 2));
    const premium = (columns.premium[i] = row.scaled(5, 2));
    const retention = (columns.retention[i] = row.scaled(6, 2));
    const rpm = (columns.rpm[i] = row.integer(7));
    if (!safe(rpm)) this.largeRpms.set(i, BigInt(row.text(7)));
    columns.limitBand[i] = Number.isNaN(limit) ? NO_BAND : bandOfCents(LIMIT_BANDS, limit);
    columns.premiumBand[i] = Number.isNaN(premium) ? NO_BAND : bandOfCents(PREMIUM_BANDS, premium);
    columns.retentionBand[i] = Number.isNaN(retention) ? NO_BAND : bandOfCents(RETENTION_BANDS, retention);
    if (!(safe(limit) && safe(premium) && safe(retention))) coverage.exact = false;
  }

  /** Sorts the loaded programs, finds each coverage's NAICS groups, and ranks RPMs and limits. */
  finishPrograms(): void {
    const { order, columns: sorted } = this.sortRows(this.programs!, "programs", (columns) => columns.day, PROGRAM_RANKS);
    if (this.largeRpms.size > 0) {
      const large = new Map<number, bigint>();
      order.forEach((row, k) => {
        const exact = this.largeRpms.get(row);
        if (exact !== undefined) large.set(k, exact);
      });
      this.largeRpms = large;
    }
    const rows = order.length;
    sorted.rpmRank = new Uint32Array(rows);
    sorted.rowByRpmRank = new Uint32Array(rows);
    sorted.limitRank = new Uint32Array(rows);
    sorted.rowByLimitRank = new Uint32Array(rows);
    for (const { programs: range } of this.coverages.values()) {
      rankRows(sorted.rpm, range, sorted.rpmRank, sorted.rowByRpmRank, this.largeRpms);
      rankRows(sorted.limit, range, sorted.limitRank, sorted.rowByLimitRank);
    }
    this.programs = sorted;
  }

  /** Room for exactly `rows` loss events. */
  startLosses(rows: number): void {
    this.losses = {
      ...rowColumns(rows),
      year: new Int32Array(rows),
      amount: new Float64Array(rows),
      id: new Float64Array(rows),
      rowByRank: new Uint32Array(0),
      rank: new Uint32Array(rows),
    };
    this.startRows(rows);
  }

  /** Fields: coverage, loss year, line, company id, amount, id, rank in answer order. */
  addLoss(row: CopyRow): void {
    const columns = this.losses!;
    const i = this.rows++;
    this.addRow(columns, i, row, "loss events");
    columns.year[i] = row.integer(1);
    columns.amount[i] = row.integer(4);
    columns.id[i] = row.integer(5);
    columns.rank[i] = row.integer(6);
  }

  /** Sorts the loaded loss events and maps each coverage's ranks to their rows. */
  finishLosses(): void {
    if (this.rows !== this.losses!.year.length) throw new Error("fewer loss events than counted");
    const { columns: sorted } = this.sortRows(this.losses!, "losses", (columns) => columns.year, LOSS_RANKS);
    sorted.rowByRank = new Uint32Array(sorted.year.length);
    for (const { losses: range } of this.coverages.values()) {
      for (let i = range.start; i < range.end; i++) sorted.rowByRank[range.start + sorted.rank[i]!] = i;
    }
    this.losses = sorted;
  }

  finish(): PeerSnapshot {
    const programs = this.programs!;
    const losses = this.losses!;
    return {
      version: this.version,
      coverages: this.coverages,
      lineOfBusinessIds: [...this.lineIndex.keys()],
      lineIndex: this.lineIndex,
      organizationTypes: [...this.companies.organizationIndex.keys()],
      organizationIndex: this.companies.organizationIndex,
      companies: this.companies.take(),
      programs,
      largeRpms: this.largeRpms,
      losses,
    };
  }

  private startRows(capacity: number): void {
    this.bucket = new Uint32Array(capacity);
    this.rows = 0;
  }

  /**
   * Row i's coverage (field 0), line (2) and company (3), noting its bucket for the
   * sort; a company with an exposure past 2^53 - 1 makes its coverage inexact.
   */
  private addRow(columns: RowColumns, i: number, row: CopyRow, table: string): CoverageSlices {
    if (i >= this.bucket.length) throw new Error(`more ${table} than counted`);
    const coverageId = row.integer(0);
    const coverage = this.coverages.get(coverageId);
    if (!coverage) throw new Error(`${table} of unknown coverage ${coverageId}`);
    const line = this.lineIndex.get(row.integer(2));
    if (line === undefined) throw new Error(`unknown line of business ${row.text(2)}`);
    columns.line[i] = line;
    const company = this.companies.positionOf(row.integer(3));
    columns.company[i] = this.companies.sortedPosition(company);
    if (!this.companies.isExact(company)) coverage.exact = false;
    this.bucket[i] = bucketOf(this.coverageIndex.get(coverageId)!, this.companies.naicsKey(company));
    return coverage;
  }

  /**
   * Puts the loaded rows in (coverage, NAICS key, `inner`) order, column by column (all
   * but `skip`, filled later), and sets each coverage's row groups.
   */
  private sortRows<T extends RowColumns>(loaded: T, table: "programs" | "losses", inner: (columns: T) => Int32Array, skip: readonly string[]) {
    const { order, bucketStarts } = rowOrder(this.bucket, inner(loaded), this.rows, this.coverages.size * NAICS_KEYS);
    this.bucket = new Uint32Array(0);
    const columns = { ...loaded };
    const permute = createPermuter(order);
    for (const key of Object.keys(loaded) as (keyof T & string)[]) {
      if (!skip.includes(key)) columns[key] = permute(loaded[key] as never);
    }
    for (const [id, coverage] of this.coverages) {
      const first = this.coverageIndex.get(id)! * NAICS_KEYS;
      const byNaics = bucketStarts.slice(first, first + NAICS_KEYS + 1);
      coverage[table] = { start: byNaics[0]!, end: byNaics[NAICS_KEYS]!, byNaics };
    }
    return { order, columns };
  }

}

function emptyNaicsRows(): NaicsRows {
  return { start: 0, end: 0, byNaics: new Int32Array(NAICS_KEYS + 1) };
}

function rowColumns(rows: number): RowColumns {
  return { company: new Uint32Array(rows), line: new Uint16Array(rows) };
}
