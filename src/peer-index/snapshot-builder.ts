import { bandOfCents, LIMIT_BANDS, PREMIUM_BANDS, RETENTION_BANDS } from "../benchmark/bands.js";
import type { CopyRow } from "./copy-rows.js";
import { naicsKey } from "./naics-key.js";
import { bucketOf, permuteInPlace, programOrder } from "./program-order.js";
import { rankRows } from "./rank-rows.js";
import { SECTORS, type CompanyColumns, type CoverageSlices, type LossColumns, type PeerSnapshot, type ProgramColumns, type SectorRows } from "./snapshot.js";

const NO_BAND = 255;
const RANK_COLUMNS: (keyof ProgramColumns)[] = ["rpmRank", "rowByRpmRank", "limitRank", "rowByLimitRank"];
/** Lines of business and organization types are indexed in 16 bits. */
const MAX_CODES = 0xffff;

/**
 * Turns the rows of the two COPYs into a snapshot. Programs arrive in any order and
 * are sorted here (program-order.ts); loss events arrive sorted by (coverage, sector,
 * loss year) with their rank in answer order. Both carry their company's fields in
 * fields 3 to 8: naics2, naics3, organization type, revenues, employees, market cap.
 */
export class SnapshotBuilder {
  private readonly coverages = new Map<number, CoverageSlices>();
  private readonly coverageIndex = new Map<number, number>();
  private readonly lineIndex = new Map<number, number>();
  private readonly organizationIndex = new Map<string, number>();
  private readonly organizationByKey = new Map<number, number>();
  /** Exact RPMs past 2^53 - 1 cents, by row as loaded, then as sorted. */
  private largeRpms = new Map<number, bigint>();
  /** The sector of the last loss row of each coverage, while they are read. */
  private readonly lastSector = new Map<SectorRows, number>();
  private programs: ProgramColumns | undefined;
  private programBucket = new Uint32Array(0);
  private programRows = 0;
  private losses: LossColumns | undefined;
  private lossRows = 0;

  constructor(
    private readonly version: number,
    coverageIds: number[],
    lines: { id: number; coverage: number }[],
  ) {
    for (const id of coverageIds) {
      this.coverageIndex.set(id, this.coverages.size);
      this.coverages.set(id, { lineOfBusinessIds: [], programs: emptySectorRows(), losses: emptySectorRows(), exact: true });
    }
    if (lines.length > MAX_CODES) throw new Error(`more than ${MAX_CODES} lines of business: too many for the peer index`);
    for (const line of lines) {
      this.lineIndex.set(line.id, this.lineIndex.size);
      this.coverages.get(line.coverage)?.lineOfBusinessIds.push(line.id);
    }
  }

  /** Room for up to `capacity` programs, in load order. */
  startPrograms(capacity: number): void {
    this.programs = {
      ...companyColumns(capacity),
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
    this.programBucket = new Uint32Array(capacity);
  }

  /** Fields: coverage, day, line, the company's six, limit, premium, retention, RPM cents. */
  addProgram(row: CopyRow): void {
    const columns = this.programs!;
    const i = this.programRows++;
    if (i >= columns.day.length) throw new Error("more programs than counted");
    const coverageId = row.integer(0);
    const coverage = this.coverages.get(coverageId);
    if (!coverage) throw new Error(`a program of unknown coverage ${coverageId}`);
    this.programBucket[i] = bucketOf(this.coverageIndex.get(coverageId)!, row.integer(3));
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

  /** Sorts the loaded programs, finds each coverage's sectors, and ranks RPMs and limits. */
  finishPrograms(): void {
    const loaded = this.programs!;
    const rows = this.programRows;
    const { order, bucketStarts } = programOrder(this.programBucket, loaded.day, rows, this.coverages.size * SECTORS);
    this.programBucket = new Uint32Array(0);
    const sorted = { ...loaded };
    const moved = new Uint8Array(rows);
    for (const key of Object.keys(loaded) as (keyof ProgramColumns)[]) {
      if (RANK_COLUMNS.includes(key)) continue; // filled below, in sorted order
      sorted[key] = permuteInPlace(loaded[key], order, moved) as never;
    }
    if (this.largeRpms.size > 0) {
      const large = new Map<number, bigint>();
      order.forEach((row, k) => {
        const exact = this.largeRpms.get(row);
        if (exact !== undefined) large.set(k, exact);
      });
      this.largeRpms = large;
    }
    sorted.rpmRank = new Uint32Array(rows);
    sorted.rowByRpmRank = new Uint32Array(rows);
    sorted.limitRank = new Uint32Array(rows);
    sorted.rowByLimitRank = new Uint32Array(rows);
    for (const [id, coverage] of this.coverages) {
      const first = this.coverageIndex.get(id)! * SECTORS;
      const ranges = coverage.programs;
      ranges.bySector = bucketStarts.slice(first, first + SECTORS + 1);
      ranges.start = ranges.bySector[0]!;
      ranges.end = ranges.bySector[SECTORS]!;
      rankRows(sorted.rpm, ranges, sorted.rpmRank, sorted.rowByRpmRank, this.largeRpms);
      rankRows(sorted.limit, ranges, sorted.limitRank, sorted.rowByLimitRank);
    }
    this.programs = sorted;
  }

  /** Room for exactly `rows` loss events. */
  startLosses(rows: number): void {
    this.losses = {
      ...companyColumns(rows),
      year: new Int32Array(rows),
      amount: new Float64Array(rows),
      id: new Float64Array(rows),
      rowByRank: new Uint32Array(rows),
      rank: new Uint32Array(rows),
    };
  }

  /** Fields: coverage, loss year, line, the company's six, amount, id, rank in answer order. */
  addLoss(row: CopyRow): void {
    const columns = this.losses!;
    const i = this.lossRows++;
    if (i >= columns.year.length) throw new Error("more loss events than counted");
    const coverage = this.enterLoss(row.integer(0), row.integer(3), i);
    columns.year[i] = row.integer(1);
    if (!this.addCompany(columns, i, row)) coverage.exact = false;
    columns.amount[i] = row.integer(9);
    columns.id[i] = row.integer(10);
    const rank = row.integer(11);
    columns.rank[i] = rank;
    columns.rowByRank[coverage.losses.start + rank] = i;
  }

  finish(): PeerSnapshot {
    const programs = this.programs!;
    const losses = this.losses!;
    if (this.lossRows !== losses.year.length) throw new Error("fewer loss events than counted");
    // The sectors after a coverage's last one start (empty) at its end.
    for (const [rows, last] of this.lastSector) rows.bySector.fill(rows.end, last + 1);
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
    };
  }

  /**
   * The coverage of loss row i, whose NAICS sector is `sector`. Rows come grouped by
   * coverage and then by sector, so a coverage's rows grow at their end, sector after sector.
   */
  private enterLoss(coverageId: number, sector: number, i: number): CoverageSlices {
    const coverage = this.coverages.get(coverageId);
    if (!coverage) throw new Error(`a loss event of unknown coverage ${coverageId}`);
    const rows = coverage.losses;
    const last = this.lastSector.get(rows);
    if (last === undefined) {
      rows.start = i;
      rows.bySector.fill(i, 0, sector + 1);
    } else if (rows.end !== i) {
      throw new Error(`loss events of coverage ${coverageId} are not contiguous`);
    } else if (sector !== last) {
      if (sector < last) throw new Error(`loss events of coverage ${coverageId} are not sorted by sector`);
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
